-- Care CAPs converted into REME by the member (docs/product.md#caps-and-reme). Joining and inviting
-- are paid as REME in rounds as they are credited; CAPs earned for care are converted by the member
-- at the community's rate, and a conversion's REME joins the member's next round like any other
-- entitlement. A conversion is a ledger row (kind 'conversion', its CAPs and the REME they bought)
-- and moves the care CAPs into converted_caps, so the same CAP is never converted twice.

ALTER TABLE reward_ledger DROP CONSTRAINT reward_ledger_kind_check;
ALTER TABLE reward_ledger ADD CONSTRAINT reward_ledger_kind_check
  CHECK (kind IN ('signup', 'referral', 'care_action', 'conversion'));

ALTER TABLE user_token_distributions
  ADD COLUMN converted_caps   bigint NOT NULL DEFAULT 0 CHECK (converted_caps >= 0),
  ADD COLUMN converted_tokens numeric(78, 0) NOT NULL DEFAULT 0 CHECK (converted_tokens >= 0),
  ADD CONSTRAINT converted_within_care CHECK (converted_caps <= activity_caps);

-- The rate (CAPs for 1,000 REME) and whether conversion is open: the CONVERSION_* settings the
-- servers were started with, written at start like the REWARD_* ones.
ALTER TABLE reward_policy
  ADD COLUMN conversion_open          boolean NOT NULL DEFAULT true,
  ADD COLUMN caps_per_thousand_reme   integer NOT NULL DEFAULT 6028 CHECK (caps_per_thousand_reme BETWEEN 1 AND 100000000);

-- Converts `p_caps` of the member's care CAPs, once per `p_key` (the member's request id): the
-- ledger row, and the balances moved in the same transaction. Answers {outcome, caps, reme}:
-- 'converted' (or 'replayed' for a key already used by this member: what it converted then),
-- 'closed' when conversion is off, 'not_enough' when fewer care CAPs are left, 'key_used' when
-- another member's conversion holds the key.
CREATE FUNCTION convert_care_caps(p_user text, p_caps bigint, p_key text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  policy reward_policy%ROWTYPE;
  d user_token_distributions%ROWTYPE;
  earlier reward_ledger%ROWTYPE;
  bought numeric(78, 0);
BEGIN
  IF p_caps <= 0 THEN
    RAISE EXCEPTION 'a conversion takes at least one CAP';
  END IF;
  SELECT * INTO policy FROM reward_policy;
  -- The row lock orders two conversions of one member: the second sees what the first left.
  SELECT * INTO d FROM user_token_distributions WHERE user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('outcome', 'not_enough', 'available', 0);
  END IF;
  SELECT * INTO earlier FROM reward_ledger WHERE source_key = 'convert:' || p_key;
  IF FOUND THEN
    IF earlier.user_id <> p_user THEN
      RETURN jsonb_build_object('outcome', 'key_used');
    END IF;
    RETURN jsonb_build_object('outcome', 'replayed', 'caps', earlier.caps, 'reme', earlier.reme::text);
  END IF;
  IF NOT policy.conversion_open THEN
    RETURN jsonb_build_object('outcome', 'closed');
  END IF;
  IF d.activity_caps - d.converted_caps < p_caps THEN
    RETURN jsonb_build_object('outcome', 'not_enough', 'available', d.activity_caps - d.converted_caps);
  END IF;
  -- Rounded down to the base unit: 1,000 REME (18 decimals) for every caps_per_thousand_reme CAPs.
  -- div() truncates; numeric's `/` rounds its last digit, which could give 1 base unit more than
  -- the app shows.
  bought := div(p_caps::numeric * 1000 * 1000000000000000000, policy.caps_per_thousand_reme);
  INSERT INTO reward_ledger (user_id, source_key, kind, caps, reme, description, status, settled_at)
  VALUES (p_user, 'convert:' || p_key, 'conversion', p_caps, bought,
          'Converted ' || p_caps || ' care CAPs', 'released', now());
  UPDATE user_token_distributions SET
    converted_caps   = converted_caps + p_caps,
    converted_tokens = converted_tokens + bought,
    updated_at       = now()
  WHERE user_id = p_user;
  PERFORM pg_notify('member_events', p_user);
  RETURN jsonb_build_object('outcome', 'converted', 'caps', p_caps, 'reme', bought::text);
END;
$$;
