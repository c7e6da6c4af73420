-- The amounts credited for a registration and for each referral level were literals in
-- 0003 (200; 100 / 50 / 25), a second copy of core's constants. They now live in one row that the
-- server writes from core (SIGNUP_CAPS, SIGNUP_REME, REFERRAL_CAPS_BY_LEVEL, REFERRAL_REME_BY_LEVEL)
-- each time it migrates (db/reward-amounts.ts), and the two functions that credit read that row.
-- The functions below restate 0003's bodies with the amounts read instead of written in: a migration
-- replaces a function whole (a deliberate parallel of 0003, which stays as the history it is).
CREATE TABLE reward_amounts (
  only_row      boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  signup_caps   bigint NOT NULL CHECK (signup_caps > 0),
  signup_reme   numeric(78, 0) NOT NULL CHECK (signup_reme >= 0),
  referral_caps bigint[] NOT NULL CHECK (cardinality(referral_caps) = 3),
  referral_reme numeric(78, 0)[] NOT NULL CHECK (cardinality(referral_reme) = 3),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION current_reward_amounts() RETURNS reward_amounts
LANGUAGE plpgsql STABLE AS $$
DECLARE
  amounts reward_amounts%ROWTYPE;
BEGIN
  SELECT * INTO amounts FROM reward_amounts;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'reward amounts are not set: the server writes them from core when it migrates';
  END IF;
  RETURN amounts;
END;
$$;

CREATE OR REPLACE FUNCTION process_referral(referrer_uuid text, referred_uuid text, ref_code text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  ancestor text := referrer_uuid;
  lvl smallint := 1;
  amounts reward_amounts%ROWTYPE := current_reward_amounts();
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
    IF credit_reward(ancestor, 'referral:' || referred_uuid || ':' || lvl, 'referral',
                     amounts.referral_caps[lvl], amounts.referral_reme[lvl], lvl, referred_uuid,
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
  PERFORM credit_reward(user_uuid, 'signup:' || user_uuid, 'signup', amounts.signup_caps,
                        amounts.signup_reme, NULL, NULL, 'Registration bonus');
  IF p.referred_by IS NOT NULL THEN
    result := process_referral_enhanced(p.referred_by, user_uuid, p.referred_with_code);
  END IF;
  RETURN result;
END;
$$;
