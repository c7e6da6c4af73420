-- Wallets are accepted only with a signature by their key over a challenge issued here
-- (docs/security.md): each challenge is single-use (used_at set by the UPDATE that consumes it)
-- and short-lived; a save-wallet challenge belongs to one signed-in member.
CREATE TABLE wallet_challenges (
  nonce      text PRIMARY KEY CHECK (nonce ~ '^[0-9a-f]{32}$'),
  purpose    text NOT NULL CHECK (purpose IN ('register', 'save-wallet')),
  user_id    text REFERENCES profiles (id) ON DELETE CASCADE,
  issued_at  timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX wallet_challenges_expiry ON wallet_challenges (expires_at);

-- One canonical form for addresses: lowercase hex, so a case-changed copy of another member's
-- address is the same address to the unique constraint. Existing case-variant duplicates cannot be
-- resolved automatically (which one holds the key is unknown here): the migration stops and names them.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(lower(wallet_address) || ' (' || n || ' members)', ', ') INTO clashes
    FROM (SELECT lower(wallet_address) AS wallet_address, count(*) AS n FROM user_wallets
           GROUP BY lower(wallet_address) HAVING count(*) > 1) d;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'wallet addresses registered more than once in different letter cases: %; keep the account whose member holds the key (see docs/security.md) and run again', clashes;
  END IF;
END;
$$;
UPDATE user_wallets SET wallet_address = lower(wallet_address) WHERE wallet_address <> lower(wallet_address);
ALTER TABLE user_wallets DROP CONSTRAINT IF EXISTS user_wallets_wallet_address_check;
ALTER TABLE user_wallets ADD CONSTRAINT user_wallets_wallet_address_canonical CHECK (wallet_address ~ '^0x[0-9a-f]{40}$');
