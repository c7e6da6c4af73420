-- The chain follower: the contracts' events read from the node and what they
-- add up to, so member reads never call the chain. One row of state: where the follower is (the
-- last processed block and its hash), the node's head it last saw, the current round, and when it
-- last reached the node. Rebuilt from scratch when the chain or the contract addresses change.
CREATE TABLE chain_follower_state (
  id                  boolean PRIMARY KEY DEFAULT true CHECK (id),
  chain_id            bigint NOT NULL,
  token_address       text NOT NULL,
  distributor_address text NOT NULL,
  -- The last processed block (CHAIN_START_BLOCK - 1 before the first); its hash is null only then.
  block_number        bigint NOT NULL,
  block_hash          text,
  block_timestamp     bigint,
  head_number         bigint,
  round_index         integer NOT NULL DEFAULT 0,
  round_root          text,
  round_block         bigint,
  -- The last sync that reached the node, the last attempt, and its error (null when it succeeded).
  synced_at           timestamptz,
  attempted_at        timestamptz,
  last_error          text
);

-- Hashes of recently processed blocks (each sync's last block), newest kept: when the node's hash
-- for the last processed block differs, the newest of these the node still agrees with is where
-- the follower rolls back to.
CREATE TABLE chain_follower_blocks (
  block_number bigint PRIMARY KEY,
  block_hash   text NOT NULL
);

-- Every Transfer (token), Claimed and RootPublished (distributor) log, by its place in the chain,
-- so a rollback deletes the rolled-back ones and recomputes the wallets they touched exactly.
-- Transfer: from_address, to_address, amount. Claimed: to_address (the account), amount.
-- RootPublished: round_index, root, amount (the round's total).
CREATE TABLE chain_events (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  block_hash   text NOT NULL,
  tx_hash      text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('transfer', 'claimed', 'root_published')),
  from_address text,
  to_address   text,
  amount       numeric(78, 0) NOT NULL,
  round_index  integer,
  root         text,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX chain_events_to_address ON chain_events (to_address, kind);
CREATE INDEX chain_events_from_address ON chain_events (from_address) WHERE from_address IS NOT NULL;

-- Each address's REME balance and claimed amount (lowercase, as user_wallets keeps them).
CREATE TABLE chain_wallets (
  address      text PRIMARY KEY,
  reme_balance numeric(78, 0) NOT NULL DEFAULT 0,
  claimed      numeric(78, 0) NOT NULL DEFAULT 0,
  block_number bigint NOT NULL
);
