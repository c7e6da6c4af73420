-- The embedded chain's transactions, in the order they were mined, so a restart replays them and
-- the chain comes back exactly as the database last saw it (the database and chain stay together).
CREATE TABLE chain_journal (
  seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tx_hash    text NOT NULL UNIQUE,
  raw_tx     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Distribution rounds: prepared (tree and proofs stored), sent (the publishing transaction signed,
-- stored and broadcast), published (its receipt seen). A rerun picks up a prepared or sent round.
CREATE TABLE distribution_rounds (
  round_index  integer PRIMARY KEY CHECK (round_index > 0),
  root         text NOT NULL CHECK (root ~ '^0x[0-9a-f]{64}$'),
  total        numeric(78, 0) NOT NULL CHECK (total >= 0),
  member_count integer NOT NULL CHECK (member_count > 0),
  -- Every node of the tree, 32 bytes each, in OpenZeppelin StandardMerkleTree's array layout.
  nodes        bytea NOT NULL,
  status       text NOT NULL DEFAULT 'prepared' CHECK (status IN ('prepared', 'sent', 'published')),
  tx_hash      text,
  raw_tx       text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
-- At most one round is unfinished at a time.
CREATE UNIQUE INDEX distribution_rounds_one_open ON distribution_rounds ((true)) WHERE status <> 'published';

-- Each member's leaf in a round. Its proof is the sibling nodes on the path from tree_index to the
-- root, read straight from the round's stored nodes (docs/decisions/0008).
CREATE TABLE distribution_entries (
  round_index       integer NOT NULL REFERENCES distribution_rounds (round_index) ON DELETE CASCADE,
  user_id           text NOT NULL,
  wallet_address    text NOT NULL,
  cumulative_amount numeric(78, 0) NOT NULL CHECK (cumulative_amount > 0),
  tree_index        integer NOT NULL,
  PRIMARY KEY (round_index, user_id)
);

-- Uncompressed out-of-line storage, so reading a proof fetches only the chunks holding its nodes.
ALTER TABLE distribution_rounds ALTER COLUMN nodes SET STORAGE EXTERNAL;
