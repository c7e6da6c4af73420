-- One reward per person, ever (docs/security.md#one-reward-per-person). The joining bonus and the
-- referral credits a new member brings their referrers are paid once per person in the community's
-- lifetime, a person being an e-mail address in its canonical form: lower case, a +tag dropped,
-- and for Gmail the dots dropped and googlemail.com read as gmail.com. Deleting an account and
-- joining again with the same address (or the same Gmail mailbox written another way) earns
-- nothing a second time. A deleted member leaves only the SHA-256 of that canonical form, never
-- the address.

CREATE FUNCTION canonical_email(address text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  lowered text := lower(btrim(address));
  at integer := length(lowered) - position('@' IN reverse(lowered)) + 1;
  local_part text;
  domain text;
BEGIN
  IF position('@' IN lowered) = 0 THEN
    RETURN lowered;
  END IF;
  local_part := split_part(substr(lowered, 1, at - 1), '+', 1);
  domain := substr(lowered, at + 1);
  IF domain IN ('gmail.com', 'googlemail.com') THEN
    local_part := replace(local_part, '.', '');
    domain := 'gmail.com';
  END IF;
  RETURN local_part || '@' || domain;
END;
$$;

CREATE FUNCTION person_fingerprint(address text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(canonical_email(address), 'UTF8')), 'hex')
$$;

-- Each person once: the account their rewards went to (NULL once that account is deleted).
CREATE TABLE rewarded_people (
  fingerprint text PRIMARY KEY,
  user_id text UNIQUE REFERENCES "user" (id) ON DELETE SET NULL
);

-- Today's members keep what they have; where two accounts share a person, the older one holds it.
INSERT INTO rewarded_people (fingerprint, user_id)
SELECT DISTINCT ON (person_fingerprint(u.email)) person_fingerprint(u.email), u.id
  FROM "user" u
 WHERE EXISTS (SELECT 1 FROM reward_ledger l WHERE l.user_id = u.id AND l.kind = 'signup')
 ORDER BY person_fingerprint(u.email), u."createdAt", u.id;

-- Whether `user_uuid` is the account its person's rewards go to: the first confirmed account of
-- that person takes the place; a later one (after a deletion, or another spelling) never does.
CREATE FUNCTION reward_person(user_uuid text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  print text;
  holder text;
BEGIN
  SELECT person_fingerprint(email) INTO print FROM "user" WHERE id = user_uuid;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  INSERT INTO rewarded_people (fingerprint, user_id) VALUES (print, user_uuid)
  ON CONFLICT (fingerprint) DO NOTHING;
  SELECT user_id INTO holder FROM rewarded_people WHERE fingerprint = print;
  RETURN holder IS NOT DISTINCT FROM user_uuid;
END;
$$;

CREATE OR REPLACE FUNCTION process_referral(referrer_uuid text, referred_uuid text, ref_code text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  ancestor text := referrer_uuid;
  lvl smallint := 1;
  amounts reward_amounts%ROWTYPE := current_reward_amounts();
  credited integer := 0;
  rewarded boolean := reward_person(referred_uuid);
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
    -- A person who was rewarded before joins the network but brings no credit.
    IF rewarded AND credit_reward(ancestor, 'referral:' || referred_uuid || ':' || lvl, 'referral',
                                  amounts.referral_caps[lvl], amounts.referral_reme[lvl], lvl,
                                  referred_uuid, 'Level ' || lvl || ' referral') THEN
      credited := credited + 1;
    END IF;
    SELECT referred_by INTO ancestor FROM profiles WHERE id = ancestor;
    lvl := lvl + 1;
  END LOOP;
  PERFORM pg_notify('member_events', referrer_uuid);
  RETURN jsonb_build_object('success', true, 'credited', credited);
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
