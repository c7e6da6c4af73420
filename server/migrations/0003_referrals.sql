-- Referrals three levels deep and the rewards ledger. A member's referrer is fixed at
-- sign-up; the chain and the credits are written when the referred member confirms the e-mail.

ALTER TABLE user_token_distributions ADD COLUMN signup_caps bigint NOT NULL DEFAULT 0 CHECK (signup_caps >= 0);

ALTER TABLE profiles ADD COLUMN referred_by text REFERENCES profiles (id) ON DELETE SET NULL;
-- Network size per level, kept with the referrals rows so reading it costs the same for any network.
ALTER TABLE profiles ADD COLUMN network_level1 bigint NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN network_level2 bigint NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN network_level3 bigint NOT NULL DEFAULT 0;
-- The network list, newest-first per level, straight from the index.
DROP INDEX referrals_referrer_level_idx;
CREATE INDEX referrals_referrer_level_idx ON referrals (referrer_id, level, created_at, id);
ALTER TABLE profiles ADD COLUMN referred_with_code text;
ALTER TABLE profiles ADD CONSTRAINT profiles_not_self_referred CHECK (referred_by <> id);
ALTER TABLE profiles ADD CONSTRAINT profiles_referral_code_format CHECK (referral_link ~ '^[A-Z0-9]{1,16}$');
CREATE INDEX profiles_referred_by_idx ON profiles (referred_by);

-- Every credit of CAPs and REME entitlement; source_key makes each credit happen once.
CREATE TABLE reward_ledger (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  source_key   text NOT NULL UNIQUE,
  kind         text NOT NULL CHECK (kind IN ('signup', 'referral', 'care_action')),
  caps         bigint NOT NULL CHECK (caps > 0),
  reme         numeric(78, 0) NOT NULL DEFAULT 0 CHECK (reme >= 0),
  level        smallint CHECK (level BETWEEN 1 AND 3),
  from_user_id text REFERENCES profiles (id) ON DELETE SET NULL,
  description  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reward_ledger_user_idx ON reward_ledger (user_id, created_at DESC);

-- One credit: the ledger row once, and the balances moved in the same statement's transaction only
-- when the row is new. Members' open pages hear about it through NOTIFY (sent at commit).
CREATE FUNCTION credit_reward(p_user text, p_source text, p_kind text, p_caps bigint, p_reme numeric,
                              p_level smallint, p_from text, p_description text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  INSERT INTO reward_ledger (user_id, source_key, kind, caps, reme, level, from_user_id, description)
  VALUES (p_user, p_source, p_kind, p_caps, p_reme, p_level, p_from, p_description)
  ON CONFLICT (source_key) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n = 0 THEN
    RETURN false;
  END IF;
  UPDATE user_token_distributions SET
    signup_tokens          = signup_tokens + CASE WHEN p_kind = 'signup' THEN p_reme ELSE 0 END,
    signup_caps            = signup_caps + CASE WHEN p_kind = 'signup' THEN p_caps ELSE 0 END,
    earned_referral_tokens = earned_referral_tokens + CASE WHEN p_kind = 'referral' THEN p_reme ELSE 0 END,
    incoming_tokens        = incoming_tokens + p_reme,
    rrp_balance            = rrp_balance + CASE WHEN p_kind = 'referral' THEN p_caps ELSE 0 END,
    activity_caps          = activity_caps + CASE WHEN p_kind = 'care_action' THEN p_caps ELSE 0 END,
    updated_at             = now()
  WHERE user_id = p_user;
  PERFORM pg_notify('member_events', p_user);
  RETURN true;
END;
$$;

-- Records the chain above the referred member (levels 1..3) and credits each referrer
-- 100 / 50 / 25 CAPs and REME. Idempotent: a repeat credits nothing.
CREATE FUNCTION process_referral(referrer_uuid text, referred_uuid text, ref_code text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  ancestor text := referrer_uuid;
  lvl smallint := 1;
  caps_by_level bigint[] := ARRAY[100, 50, 25];
  credited integer := 0;
  n integer;
BEGIN
  WHILE ancestor IS NOT NULL AND lvl <= 3 LOOP
    INSERT INTO referrals (referrer_id, referred_id, referral_code, level)
    VALUES (ancestor, referred_uuid, ref_code, lvl)
    ON CONFLICT (referred_id, level) DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 1 THEN
      UPDATE profiles SET network_level1 = network_level1 + CASE WHEN lvl = 1 THEN 1 ELSE 0 END,
                          network_level2 = network_level2 + CASE WHEN lvl = 2 THEN 1 ELSE 0 END,
                          network_level3 = network_level3 + CASE WHEN lvl = 3 THEN 1 ELSE 0 END
       WHERE id = ancestor;
    END IF;
    IF credit_reward(ancestor, 'referral:' || referred_uuid || ':' || lvl, 'referral', caps_by_level[lvl],
                     caps_by_level[lvl] * 1000000000000000000::numeric, lvl, referred_uuid,
                     'Level ' || lvl || ' referral') THEN
      credited := credited + 1;
    END IF;
    SELECT referred_by INTO ancestor FROM profiles WHERE id = ancestor;
    lvl := lvl + 1;
  END LOOP;
  PERFORM pg_notify('member_events', referrer_uuid);
  RETURN jsonb_build_object('success', true, 'credited', credited);
END;
$$;

-- process_referral with every check first; a refusal changes nothing.
CREATE FUNCTION process_referral_enhanced(referrer_uuid text, referred_uuid text, ref_code text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  expected_code text;
  current_referrer text;
BEGIN
  IF referrer_uuid = referred_uuid THEN
    RETURN jsonb_build_object('success', false, 'message', 'A member cannot refer themselves');
  END IF;
  SELECT referral_link INTO expected_code FROM profiles WHERE id = referrer_uuid;
  IF expected_code IS NULL OR expected_code <> upper(ref_code) THEN
    RETURN jsonb_build_object('success', false, 'message', 'Invalid referral code: ' || ref_code);
  END IF;
  SELECT referred_by INTO current_referrer FROM profiles WHERE id = referred_uuid FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('success', false, 'message', 'User not found');
  END IF;
  IF current_referrer IS NOT NULL AND current_referrer <> referrer_uuid THEN
    RETURN jsonb_build_object('success', false, 'message', 'This member was already referred');
  END IF;
  -- The referred member must not be anywhere above the referrer, at any depth.
  IF EXISTS (
    WITH RECURSIVE up (id) AS (
      SELECT referred_by FROM profiles WHERE id = referrer_uuid
      UNION
      SELECT p.referred_by FROM profiles p JOIN up ON p.id = up.id
    )
    SELECT 1 FROM up WHERE id = referred_uuid
  ) THEN
    RETURN jsonb_build_object('success', false, 'message', 'A referral chain cannot loop');
  END IF;
  UPDATE profiles SET referred_by = referrer_uuid, referred_with_code = upper(ref_code)
   WHERE id = referred_uuid AND referred_by IS NULL;
  RETURN process_referral(referrer_uuid, referred_uuid, upper(ref_code));
END;
$$;

-- A confirmed member: the signup credit, then the referral chain if they came with a code.
CREATE FUNCTION credit_confirmed_member(user_uuid text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  p profiles%ROWTYPE;
  result jsonb := jsonb_build_object('success', true);
BEGIN
  SELECT * INTO p FROM profiles WHERE id = user_uuid;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('success', false, 'message', 'User not found');
  END IF;
  PERFORM credit_reward(user_uuid, 'signup:' || user_uuid, 'signup', 200, 200 * 1000000000000000000::numeric,
                        NULL, NULL, 'Registration bonus');
  IF p.referred_by IS NOT NULL THEN
    result := process_referral_enhanced(p.referred_by, user_uuid, p.referred_with_code);
  END IF;
  RETURN result;
END;
$$;

CREATE FUNCTION get_user_referral_code(user_uuid text) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT referral_link FROM profiles WHERE id = user_uuid $$;

CREATE FUNCTION get_referral_credit_history(user_uuid text)
RETURNS TABLE (id bigint, from_user_id text, amount bigint, level smallint, created_at timestamptz, description text)
LANGUAGE sql STABLE AS $$
  SELECT l.id, l.from_user_id, l.caps, l.level, l.created_at, l.description
    FROM reward_ledger l
   WHERE l.user_id = user_uuid AND l.kind = 'referral'
   ORDER BY l.created_at DESC, l.id DESC
$$;

CREATE FUNCTION get_total_referral_income(user_uuid text) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(caps), 0)::bigint FROM reward_ledger WHERE user_id = user_uuid AND kind = 'referral'
$$;

CREATE FUNCTION get_referral_hierarchy(user_uuid text)
RETURNS TABLE (referred_id text, level smallint, created_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT r.referred_id, r.level, r.created_at FROM referrals r
   WHERE r.referrer_id = user_uuid ORDER BY r.level, r.created_at, r.id
$$;

CREATE FUNCTION get_referrals_by_level(user_uuid text, level_num integer)
RETURNS TABLE (referred_id text, level smallint, created_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT r.referred_id, r.level, r.created_at FROM referrals r
   WHERE r.referrer_id = user_uuid AND r.level = level_num ORDER BY r.created_at, r.id
$$;

-- The counts are kept per member; the hierarchy lists at most max_items members (first by level,
-- then by arrival), so the answer costs the same for a network of 3 or of 300,000.
CREATE FUNCTION get_referral_hierarchy_with_counts(user_uuid text, max_items integer DEFAULT 300) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  WITH h AS (
    (SELECT r.referred_id, r.level, r.created_at FROM referrals r WHERE r.referrer_id = user_uuid AND r.level = 1 ORDER BY r.created_at, r.id LIMIT max_items)
    UNION ALL
    (SELECT r.referred_id, r.level, r.created_at FROM referrals r WHERE r.referrer_id = user_uuid AND r.level = 2 ORDER BY r.created_at, r.id LIMIT max_items)
    UNION ALL
    (SELECT r.referred_id, r.level, r.created_at FROM referrals r WHERE r.referrer_id = user_uuid AND r.level = 3 ORDER BY r.created_at, r.id LIMIT max_items)
  ), firsts AS (SELECT * FROM h ORDER BY level, created_at LIMIT max_items)
  SELECT jsonb_build_object(
    'success', true,
    'data', jsonb_build_object(
      'hierarchy', coalesce((SELECT jsonb_agg(jsonb_build_object('referred_id', referred_id, 'level', level, 'created_at', created_at) ORDER BY level, created_at) FROM firsts), '[]'::jsonb),
      'level_counts', jsonb_build_object('level1', p.network_level1, 'level2', p.network_level2, 'level3', p.network_level3),
      'total_network_size', p.network_level1 + p.network_level2 + p.network_level3))
  FROM profiles p WHERE p.id = user_uuid
$$;

CREATE FUNCTION get_user_referral_balance(user_uuid text) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('success', true, 'data', jsonb_build_object('total_earned', get_total_referral_income(user_uuid)))
$$;
