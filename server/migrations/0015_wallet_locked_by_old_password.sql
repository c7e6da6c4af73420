-- Sign-in speed: a password reset cannot re-lock the wallet (only the member's browser
-- can, with the old password or the 12 words), so the server remembers that the keystore is still
-- locked by the old password. Sign-in then goes straight to the recovery screen, or straight to the
-- dashboard, without opening the keystore first. Set by the reset, cleared when a re-locked keystore
-- is saved (recovery, password change). Resets before this column existed are caught by the
-- browser's check of the keystore after sign-in.
ALTER TABLE user_wallets ADD COLUMN locked_by_old_password boolean NOT NULL DEFAULT false;
