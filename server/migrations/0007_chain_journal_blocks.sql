-- Each journaled transaction's block (number, timestamp, hash), so a restart mines it at the same
-- number and timestamp and checks the hash: the chain comes back identical, even where a contract
-- reads block.timestamp. Entries from before have none: a start replays them as before and then
-- records the block each was mined in.
ALTER TABLE chain_journal
  ADD COLUMN block_number    bigint,
  ADD COLUMN block_timestamp bigint,
  ADD COLUMN block_hash      text,
  ADD CONSTRAINT chain_journal_block_all_or_none
    CHECK ((block_number IS NULL) = (block_timestamp IS NULL) AND (block_number IS NULL) = (block_hash IS NULL));

-- Entries a start cut from the journal because they no longer replay (CHAIN_JOURNAL_ON_DIVERGENCE=
-- archive): the diverging entry and every later one, kept for inspection (docs/operations.md).
CREATE TABLE chain_journal_archive (
  seq             bigint PRIMARY KEY,
  tx_hash         text NOT NULL,
  raw_tx          text NOT NULL,
  block_number    bigint,
  block_timestamp bigint,
  block_hash      text,
  created_at      timestamptz NOT NULL,
  archived_at     timestamptz NOT NULL DEFAULT now(),
  reason          text NOT NULL
);
