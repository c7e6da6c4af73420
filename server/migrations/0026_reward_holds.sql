-- Rewards held before they are trusted (docs/operations.md#reward-integrity). The joining bonus and
-- every referral credit enter the ledger held, with a release time; a held credit moves no balance,
-- so it is in no round's entitlements, dry run or published tree. Unflagged credits are released
-- when their time comes; credits whose joining raised signals wait for an operator, who releases
-- or voids them. Care actions are credited by operators and are never held.

-- The policy the running servers were started with (REWARD_* settings, written at start).
CREATE TABLE reward_policy (
  singleton            boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  hold_hours           integer NOT NULL DEFAULT 72 CHECK (hold_hours BETWEEN 0 AND 8760),
  referrer_daily_cap   integer NOT NULL DEFAULT 10 CHECK (referrer_daily_cap >= 1),
  busy_network_signups integer NOT NULL DEFAULT 3 CHECK (busy_network_signups >= 1),
  flag_weight          integer NOT NULL DEFAULT 2 CHECK (flag_weight >= 1),
  -- The last block whose token transfers were looked at for cash-outs (flag_cash_outs).
  cash_out_block       bigint NOT NULL DEFAULT 0
);
INSERT INTO reward_policy DEFAULT VALUES;

-- A credit's state. `subject_id` is the member whose joining the credit rewards (their own bonus,
-- or the referral credits it brought up to three referrers): holds, signals and reviews are the
-- subject's. `settled_at` is when it was released or voided.
ALTER TABLE reward_ledger
  ADD COLUMN status        text NOT NULL DEFAULT 'released' CHECK (status IN ('held', 'released', 'void')),
  ADD COLUMN subject_id    text,
  ADD COLUMN release_at    timestamptz,
  ADD COLUMN settled_at    timestamptz,
  ADD COLUMN decision_note text CHECK (length(decision_note) <= 500);
UPDATE reward_ledger
   SET subject_id = CASE kind WHEN 'signup' THEN user_id WHEN 'referral' THEN from_user_id END,
       settled_at = created_at;
CREATE INDEX reward_ledger_held_idx ON reward_ledger (release_at, id) WHERE status = 'held';
CREATE INDEX reward_ledger_subject_idx ON reward_ledger (subject_id) WHERE subject_id IS NOT NULL;

-- What a sign-up looked like: the client network (an IPv4 /24 or IPv6 /48 prefix) and a coarse,
-- hashed class of the browser. Kept while the member's credits are held, then deleted.
CREATE TABLE signup_signals (
  user_id      text PRIMARY KEY REFERENCES "user" (id) ON DELETE CASCADE,
  network      text NOT NULL CHECK (length(network) <= 64),
  device_class text CHECK (length(device_class) = 64),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signup_signals_network_idx ON signup_signals (network, created_at);
CREATE INDEX signup_signals_device_idx ON signup_signals (device_class, created_at);

-- The signals a joining raised (docs/operations.md#the-signals). Each flags; none blocks: the
-- credits of a subject whose weights add up to the policy's flag_weight wait for an operator.
CREATE TABLE reward_flags (
  subject_id text NOT NULL,
  signal     text NOT NULL,
  weight     smallint NOT NULL CHECK (weight > 0),
  detail     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject_id, signal)
);

CREATE FUNCTION flagged_subject(subject text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(weight), 0) >= (SELECT flag_weight FROM reward_policy)
    FROM reward_flags WHERE subject_id = subject
$$;

-- Whether a joining's held credits wait for an operator: its own signals add up, or one of its
-- credits would go to a member whose wallet sent REME to a farm's collecting address.
CREATE FUNCTION joining_waits(subject text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT flagged_subject(subject) OR EXISTS (
    SELECT 1 FROM reward_ledger l JOIN reward_flags f ON f.subject_id = l.user_id AND f.signal = 'cash_out'
     WHERE l.subject_id = subject AND l.status = 'held')
$$;

-- Looks at the token transfers the chain follower indexed since the last look: an address outside
-- the community that received REME from 3 or more members' wallets collects a farm's tokens, so
-- those members and their referrers are flagged (cash_out). Returns how many flags it wrote.
CREATE FUNCTION flag_cash_outs() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  since bigint := (SELECT cash_out_block FROM reward_policy);
  upto bigint := (SELECT coalesce(max(block_number), 0) FROM chain_events);
  n integer;
BEGIN
  IF upto <= since THEN
    RETURN 0;
  END IF;
  WITH sinks AS (
    SELECT DISTINCT e.to_address AS sink FROM chain_events e
     WHERE e.kind = 'transfer' AND e.block_number > since AND e.block_number <= upto
       AND e.to_address <> '0x0000000000000000000000000000000000000000'
       AND NOT EXISTS (SELECT 1 FROM user_wallets m WHERE m.wallet_address = e.to_address)
  ), senders AS (
    SELECT DISTINCT s.sink, w.user_id FROM sinks s
      JOIN chain_events e ON e.to_address = s.sink AND e.kind = 'transfer'
      JOIN user_wallets w ON w.wallet_address = e.from_address
  ), farms AS (
    SELECT sink FROM senders GROUP BY sink HAVING count(*) >= 3
  ), flagged AS (
    SELECT se.user_id AS id, se.sink FROM senders se JOIN farms USING (sink)
    UNION
    SELECT p.referred_by, se.sink FROM senders se JOIN farms USING (sink)
      JOIN profiles p ON p.id = se.user_id WHERE p.referred_by IS NOT NULL
  )
  INSERT INTO reward_flags (subject_id, signal, weight, detail)
  SELECT DISTINCT ON (id) id, 'cash_out', 3, 'REME went to ' || sink FROM flagged ORDER BY id, sink
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  UPDATE reward_policy SET cash_out_block = upto;
  RETURN n;
END;
$$;

-- Moves a credit's CAPs and REME into (sign 1) or out of (sign -1) the member's balances.
CREATE FUNCTION move_reward_balances(p_user text, p_kind text, p_caps bigint, p_reme numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_token_distributions SET
    signup_tokens          = signup_tokens + sign * CASE WHEN p_kind = 'signup' THEN p_reme ELSE 0 END,
    signup_caps            = signup_caps + sign * CASE WHEN p_kind = 'signup' THEN p_caps ELSE 0 END,
    earned_referral_tokens = earned_referral_tokens + sign * CASE WHEN p_kind = 'referral' THEN p_reme ELSE 0 END,
    rrp_balance            = rrp_balance + sign * CASE WHEN p_kind = 'referral' THEN p_caps ELSE 0 END,
    activity_caps          = activity_caps + sign * CASE WHEN p_kind = 'care_action' THEN p_caps ELSE 0 END,
    updated_at             = now()
  WHERE user_id = p_user;
END;
$$;

CREATE OR REPLACE FUNCTION credit_reward(p_user text, p_source text, p_kind text, p_caps bigint, p_reme numeric,
                                         p_level smallint, p_from text, p_description text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  hold integer := (SELECT hold_hours FROM reward_policy);
  subject text := CASE p_kind WHEN 'signup' THEN p_user WHEN 'referral' THEN p_from END;
  held boolean := subject IS NOT NULL AND hold > 0;
BEGIN
  INSERT INTO reward_ledger (user_id, source_key, kind, caps, reme, level, from_user_id, description,
                             status, subject_id, release_at, settled_at)
  VALUES (p_user, p_source, p_kind, p_caps, p_reme, p_level, p_from, p_description,
          CASE WHEN held THEN 'held' ELSE 'released' END, subject,
          CASE WHEN held THEN now() + make_interval(hours => hold) END,
          CASE WHEN held THEN NULL ELSE now() END)
  ON CONFLICT (source_key) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n = 0 THEN
    RETURN false;
  END IF;
  IF NOT held THEN
    PERFORM move_reward_balances(p_user, p_kind, p_caps, p_reme, 1);
  END IF;
  PERFORM pg_notify('member_events', p_user);
  RETURN true;
END;
$$;

-- Settles one held credit: 'released' moves it into the balances, 'void' leaves it out. A credit
-- already settled is left as it is (false).
CREATE FUNCTION settle_held_credit(credit_id bigint, outcome text, note text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  c reward_ledger%ROWTYPE;
BEGIN
  IF outcome NOT IN ('released', 'void') THEN
    RAISE EXCEPTION 'outcome must be released or void, not %', outcome;
  END IF;
  SELECT * INTO c FROM reward_ledger WHERE id = credit_id AND status = 'held' FOR UPDATE;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE reward_ledger SET status = outcome, settled_at = now(), decision_note = note WHERE id = credit_id;
  IF outcome = 'released' THEN
    PERFORM move_reward_balances(c.user_id, c.kind, c.caps, c.reme, 1);
  END IF;
  PERFORM pg_notify('member_events', c.user_id);
  RETURN true;
END;
$$;

-- Releases the held credits whose time has come and whose subject is not flagged, at most `batch`
-- of them; returns how many. Signals of members with nothing held any more are deleted.
CREATE FUNCTION release_due_credits(batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  released integer := 0;
  c record;
BEGIN
  PERFORM flag_cash_outs();
  FOR c IN
    SELECT l.id FROM reward_ledger l
     WHERE l.status = 'held' AND l.release_at <= now() AND NOT joining_waits(l.subject_id)
     ORDER BY l.release_at, l.id
     LIMIT batch
     FOR UPDATE SKIP LOCKED
  LOOP
    IF settle_held_credit(c.id, 'released', NULL) THEN
      released := released + 1;
    END IF;
  END LOOP;
  DELETE FROM signup_signals s
   WHERE s.created_at < now() - make_interval(hours => (SELECT hold_hours FROM reward_policy))
     AND NOT EXISTS (SELECT 1 FROM reward_ledger l WHERE l.subject_id = s.user_id AND l.status = 'held');
  RETURN released;
END;
$$;

-- The signals a confirmed member's joining raises, written before their credits are made. Each
-- compares the sign-up with its referrer's and with the community's recent sign-ups.
CREATE FUNCTION flag_joining(user_uuid text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  policy reward_policy%ROWTYPE;
  mine signup_signals%ROWTYPE;
  theirs signup_signals%ROWTYPE;
  referrer text;
  n integer;
BEGIN
  SELECT * INTO policy FROM reward_policy;
  IF policy.hold_hours = 0 THEN
    RETURN;
  END IF;
  SELECT referred_by INTO referrer FROM profiles WHERE id = user_uuid;
  SELECT * INTO mine FROM signup_signals WHERE user_id = user_uuid;
  IF FOUND THEN
    SELECT count(*) INTO n FROM signup_signals
     WHERE network = mine.network AND user_id <> user_uuid AND created_at > now() - interval '24 hours';
    IF n >= policy.busy_network_signups THEN
      INSERT INTO reward_flags (subject_id, signal, weight, detail)
      VALUES (user_uuid, 'busy_network', 2, n || ' other sign-ups from this network in 24 hours')
      ON CONFLICT DO NOTHING;
    END IF;
    IF mine.device_class IS NOT NULL THEN
      SELECT count(*) INTO n FROM signup_signals
       WHERE device_class = mine.device_class AND user_id <> user_uuid AND created_at > now() - interval '24 hours';
      IF n >= policy.busy_network_signups THEN
        INSERT INTO reward_flags (subject_id, signal, weight, detail)
        VALUES (user_uuid, 'same_device_class', 1, n || ' other sign-ups from the same kind of browser in 24 hours')
        ON CONFLICT DO NOTHING;
      END IF;
    END IF;
    IF referrer IS NOT NULL THEN
      SELECT * INTO theirs FROM signup_signals WHERE user_id = referrer;
      IF FOUND AND theirs.network = mine.network THEN
        INSERT INTO reward_flags (subject_id, signal, weight, detail)
        VALUES (user_uuid, 'same_network_as_referrer', 2, mine.network)
        ON CONFLICT DO NOTHING;
      END IF;
    END IF;
  END IF;
  IF referrer IS NOT NULL THEN
    SELECT count(*) INTO n FROM referrals
     WHERE referrer_id = referrer AND level = 1 AND referred_id <> user_uuid AND created_at > now() - interval '1 hour';
    IF n >= 3 THEN
      INSERT INTO reward_flags (subject_id, signal, weight, detail)
      VALUES (user_uuid, 'referral_burst', 1, 'their referrer brought ' || n || ' other members in the last hour')
      ON CONFLICT DO NOTHING;
    END IF;
    SELECT count(*) INTO n FROM reward_ledger
     WHERE user_id = referrer AND kind = 'referral' AND level = 1 AND created_at > now() - interval '24 hours';
    IF n >= policy.referrer_daily_cap THEN
      INSERT INTO reward_flags (subject_id, signal, weight, detail)
      VALUES (user_uuid, 'referrer_daily_cap', 2, 'their referrer was already credited for ' || n || ' referrals today')
      ON CONFLICT DO NOTHING;
    END IF;
    -- A flagged joining holds its referrer's too: a farm's first account looks like anyone's until
    -- the accounts it brings are seen.
    IF (SELECT sum(weight) FROM reward_flags WHERE subject_id = user_uuid) >= policy.flag_weight THEN
      INSERT INTO reward_flags (subject_id, signal, weight, detail)
      VALUES (referrer, 'referred_flagged_member', 2, '')
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;
END;
$$;

CREATE OR REPLACE FUNCTION credit_confirmed_member(user_uuid text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  p profiles%ROWTYPE;
  amounts reward_amounts%ROWTYPE := current_reward_amounts();
  result jsonb := jsonb_build_object('success', true);
BEGIN
  SELECT * INTO p FROM profiles WHERE id = user_uuid;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('success', false, 'message', 'User not found');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM reward_ledger WHERE source_key = 'signup:' || user_uuid) THEN
    PERFORM flag_joining(user_uuid);
  END IF;
  IF reward_person(user_uuid) THEN
    PERFORM credit_reward(user_uuid, 'signup:' || user_uuid, 'signup', amounts.signup_caps,
                          amounts.signup_reme, NULL, NULL, 'Registration bonus');
  END IF;
  IF p.referred_by IS NOT NULL THEN
    result := process_referral_enhanced(p.referred_by, user_uuid, p.referred_with_code);
  END IF;
  RETURN result;
END;
$$;

-- Deleting an account voids what it has not been paid yet: its own held credits go with the
-- account (ON DELETE CASCADE), and the held referral credits its joining gave its referrers are
-- voided here, before the account is gone.
CREATE OR REPLACE FUNCTION delete_current_user(user_uuid text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  member_email text;
  member_code text;
  c record;
BEGIN
  SELECT email INTO member_email FROM "user" WHERE id = user_uuid FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('success', false, 'message', 'User not found');
  END IF;
  FOR c IN SELECT id FROM reward_ledger WHERE subject_id = user_uuid AND status = 'held' LOOP
    PERFORM settle_held_credit(c.id, 'void', 'the referred account was deleted');
  END LOOP;
  DELETE FROM reward_flags WHERE subject_id = user_uuid;
  UPDATE reward_ledger SET subject_id = NULL WHERE subject_id = user_uuid;
  UPDATE reward_ledger SET source_key = 'deleted-member:' || id WHERE from_user_id = user_uuid;
  SELECT referral_code INTO member_code FROM profiles WHERE id = user_uuid;
  UPDATE profiles SET referred_with_code = NULL WHERE referred_by = user_uuid;
  UPDATE referrals SET referral_code = '' WHERE referral_code = member_code;
  DELETE FROM verification WHERE value = user_uuid;
  DELETE FROM mail_outbox WHERE to_address = lower(member_email);
  DELETE FROM "user" WHERE id = user_uuid;
  RETURN jsonb_build_object('success', true, 'message', 'Account deleted');
END;
$$;
