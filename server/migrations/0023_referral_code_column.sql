-- The member's own referral code was kept in a column named referral_link, although it holds a
-- code (the link is built from it). The column is renamed; its constraint and indexes follow by
-- themselves, and the functions that read it by name are defined again with the new name.
ALTER TABLE profiles RENAME COLUMN referral_link TO referral_code;

CREATE OR REPLACE FUNCTION process_referral_enhanced(referrer_uuid text, referred_uuid text, ref_code text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  expected_code text;
  current_referrer text;
BEGIN
  IF referrer_uuid = referred_uuid THEN
    RETURN jsonb_build_object('success', false, 'message', 'A member cannot refer themselves');
  END IF;
  SELECT referral_code INTO expected_code FROM profiles WHERE id = referrer_uuid;
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

CREATE OR REPLACE FUNCTION get_user_referral_code(user_uuid text) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT referral_code FROM profiles WHERE id = user_uuid $$;

CREATE OR REPLACE FUNCTION delete_current_user(user_uuid text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  member_email text;
  member_code text;
BEGIN
  SELECT email INTO member_email FROM "user" WHERE id = user_uuid FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('success', false, 'message', 'User not found');
  END IF;
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
