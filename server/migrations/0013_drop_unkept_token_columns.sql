-- Four columns of user_token_distributions were never kept true, and their
-- figures come from where the truth is (decision 0016): what is incoming, distributed and ready
-- to claim is worked out per request from the reward ledger, the published round's entry and the
-- chain follower's index (distribution/claims.ts tokenFigures). A column that only looks right is
-- worse than none, so they go; credit_reward stops writing incoming_tokens.
CREATE OR REPLACE FUNCTION credit_reward(p_user text, p_source text, p_kind text, p_caps bigint, p_reme numeric,
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
    rrp_balance            = rrp_balance + CASE WHEN p_kind = 'referral' THEN p_caps ELSE 0 END,
    activity_caps          = activity_caps + CASE WHEN p_kind = 'care_action' THEN p_caps ELSE 0 END,
    updated_at             = now()
  WHERE user_id = p_user;
  PERFORM pg_notify('member_events', p_user);
  RETURN true;
END;
$$;

ALTER TABLE user_token_distributions
  DROP COLUMN earned_signup_tokens,
  DROP COLUMN incoming_tokens,
  DROP COLUMN tokens_for_claiming,
  DROP COLUMN distributed_tokens;
