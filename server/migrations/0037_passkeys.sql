-- Passkeys (issue 31; docs/decisions/0026-passkeys.md, docs/security.md#passkeys): an extra way to
-- sign in and to unlock the wallet, never the only one — the password and the recovery phrase
-- always still work.

-- A member's passkeys: the public key and signature counter WebAuthn's checks need, and what the
-- account page shows. Nothing here can sign for the member or open their wallet.
CREATE TABLE passkeys (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE CHECK (credential_id ~ '^[A-Za-z0-9_-]+$'
                                             AND char_length(credential_id) BETWEEN 16 AND 1366),
  public_key    bytea NOT NULL CHECK (octet_length(public_key) <= 2048),
  counter       bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports    text[] NOT NULL DEFAULT '{}',
  synced        boolean NOT NULL,
  -- The authenticator said it can derive a key for this site (WebAuthn's PRF extension).
  prf           boolean NOT NULL DEFAULT false,
  name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at);

-- The wallet's key (and recovery phrase) wrapped in the member's browser for one passkey:
-- AES-256-GCM under HKDF-SHA-256 of the passkey's PRF output for `prf_salt`. The PRF output never
-- leaves the browser, so the server cannot unwrap it. Goes with its passkey.
CREATE TABLE passkey_wallet_keys (
  passkey_id text PRIMARY KEY REFERENCES passkeys (id) ON DELETE CASCADE,
  prf_salt   text NOT NULL CHECK (prf_salt ~ '^[A-Za-z0-9_-]{43}$'),
  iv         text NOT NULL CHECK (iv ~ '^[A-Za-z0-9_-]{16}$'),
  ciphertext text NOT NULL CHECK (ciphertext ~ '^[A-Za-z0-9_-]+$' AND char_length(ciphertext) <= 1024),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Single-use WebAuthn challenges, five minutes each: adding a passkey (bound to the member) and
-- signing in with one (bound to nobody until the passkey answers). Taking one deletes it, so an
-- answer replayed finds no challenge.
CREATE TABLE webauthn_challenges (
  id         text PRIMARY KEY,
  challenge  text NOT NULL CHECK (challenge ~ '^[A-Za-z0-9_-]{43}$'),
  purpose    text NOT NULL CHECK (purpose IN ('register', 'sign_in')),
  user_id    text REFERENCES "user" (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  CHECK ((purpose = 'register') = (user_id IS NOT NULL))
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
