-- The account page changes the password (the keystore re-encrypted with a fresh wallet
-- proof of its own purpose) and deletes the account for the member.
ALTER TABLE wallet_challenges DROP CONSTRAINT IF EXISTS wallet_challenges_purpose_check;
ALTER TABLE wallet_challenges ADD CONSTRAINT wallet_challenges_purpose_check
  CHECK (purpose IN ('register', 'save-wallet', 'change-password'));

-- The account-deletion routine, now reached by members (DELETE /api/account) as well as the dev
-- route. Deleting "user" cascades to the sessions (whose trigger tells every process), the
-- better-auth account, the profile, wallet, distributions row, the member's own ledger rows,
-- referral rows on both sides, hand-off codes, wallet challenges and sponsored claims. What points
-- at the member from other members' rows is cut, never deleted: a referrer's ledger rows keep
-- their CAPs with from_user_id set to NULL (ON DELETE SET NULL), the referrer's network counts stay,
-- and members the deleted one referred keep their credits (profiles.referred_by SET NULL). This
-- also removes what holds the member's identity outside those foreign keys: the id in the source
-- key of the referrer's credits (it only kept a credit from being made twice, and no new credit can
-- come from a deleted member), the referral code they gave to the members they referred (kept on
-- those members' profiles and on their referral rows up the chain), their
-- reset tokens (better-auth's verification rows, whose value is the user id) and every mail to
-- their address in the outbox. Published rounds keep the member's leaf (distribution_entries: the
-- wallet and amount, as the public tree does) under an id that no longer names anyone.
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
  SELECT referral_link INTO member_code FROM profiles WHERE id = user_uuid;
  UPDATE profiles SET referred_with_code = NULL WHERE referred_by = user_uuid;
  UPDATE referrals SET referral_code = '' WHERE referral_code = member_code;
  DELETE FROM verification WHERE value = user_uuid;
  DELETE FROM mail_outbox WHERE to_address = lower(member_email);
  DELETE FROM "user" WHERE id = user_uuid;
  RETURN jsonb_build_object('success', true, 'message', 'Account deleted');
END;
$$;
