-- One-time hand-off codes for the sister community app: only a hash is kept, a code
-- lives 60 s and is redeemed once (the redeeming UPDATE sets used_at where it is still null).
CREATE TABLE handoff_codes (
  code_hash  text PRIMARY KEY CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  user_id    text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX handoff_codes_user ON handoff_codes (user_id, expires_at);
