-- Sponsored claims: members' signed requests, queued until the relayer sends them in a
-- batch, and the relayer's transactions, recorded before they are broadcast so that a crash never
-- loses one, never sends a nonce twice and never leaves one behind.
CREATE TABLE relayer_transactions (
  relayer text NOT NULL,                 -- the relayer's address, lowercase
  nonce bigint NOT NULL,
  round_index integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'mined', 'failed')),
  -- Every signed version of this nonce, oldest first: [{hash, raw, maxFeePerGas, maxPriorityFeePerGas, signedAt}].
  -- A replacement carries the same claims with a higher fee; whichever is mined is the one.
  attempts jsonb NOT NULL,
  mined_hash text,
  block_number bigint,
  gas_used bigint,
  cost_wei numeric(78, 0),
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (relayer, nonce)
);
CREATE INDEX relayer_transactions_pending ON relayer_transactions (relayer, nonce) WHERE status = 'pending';

CREATE TABLE sponsored_claims (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  account text NOT NULL,                 -- the member's wallet, lowercase
  round_index integer NOT NULL,
  cumulative_amount numeric(78, 0) NOT NULL,
  amount numeric(78, 0) NOT NULL,        -- what it pays: cumulative less claimed when queued
  signature text NOT NULL,
  deadline timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'sent', 'confirmed', 'failed')),
  reason text,
  relayer text,
  tx_nonce bigint,
  reserved_wei numeric(78, 0) NOT NULL,  -- held against the day's budget until it is paid or fails
  spent_wei numeric(78, 0),              -- its share of the mined transaction's fee
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (relayer, tx_nonce) REFERENCES relayer_transactions (relayer, nonce)
);
-- One live request per leaf: a second is refused, so no transaction is wasted on it.
CREATE UNIQUE INDEX sponsored_claims_live ON sponsored_claims (account, cumulative_amount) WHERE status <> 'failed';
CREATE INDEX sponsored_claims_queued ON sponsored_claims (id) WHERE status = 'queued';
CREATE INDEX sponsored_claims_member ON sponsored_claims (user_id, id DESC);
CREATE INDEX sponsored_claims_day ON sponsored_claims (created_at);
