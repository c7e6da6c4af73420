-- When the member proved they saved their recovery phrase (docs/security.md#the-recovery-phrase):
-- the 12 words typed back made their wallet, and its key signed that (purpose 'backup-phrase').
-- Until then the dashboard keeps a "Back up your wallet" task.
ALTER TABLE user_wallets ADD COLUMN phrase_saved_at timestamptz;
-- Wallets made before this was recorded: their keystores do not hold the phrase, so it cannot be
-- shown again, and a task a member who lost the words could never clear would only nag. They went
-- through the sign-up's typed-back check when it held member pages shut; they are counted as saved.
UPDATE user_wallets SET phrase_saved_at = updated_at;

ALTER TABLE wallet_challenges DROP CONSTRAINT wallet_challenges_purpose_check;
ALTER TABLE wallet_challenges ADD CONSTRAINT wallet_challenges_purpose_check
  CHECK (purpose IN ('register', 'save-wallet', 'change-password', 'backup-phrase'));
