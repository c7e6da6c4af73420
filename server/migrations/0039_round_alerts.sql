-- Alerts about the distributor (issue 28; docs/operations.md#alerts): a round proposed on chain
-- that this server did not build, the treasury's REME or approval changing outside a round, the
-- publisher's ETH running low. Raised by the process that follows the chain; each is logged,
-- counted in /metrics, listed in the operators' console and mailed to the operators once.
CREATE TABLE round_alerts (
  id           serial PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('foreign_root', 'treasury_transfer', 'treasury_allowance', 'publisher_eth_low')),
  round_index  integer,
  -- What was seen, as the console and the mail say it (addresses, amounts, the root).
  detail       jsonb NOT NULL DEFAULT '{}',
  block_number bigint,
  tx_hash      text,
  raised_at    timestamptz NOT NULL DEFAULT now(),
  -- When the operators were told (log and mail).
  notified_at  timestamptz,
  -- When it no longer needs anyone: the foreign round cancelled, the ETH topped up.
  resolved_at  timestamptz
);
-- One alert per foreign round and per treasury transaction, however often the follower reads them.
CREATE UNIQUE INDEX round_alerts_round ON round_alerts (round_index) WHERE kind = 'foreign_root';
CREATE UNIQUE INDEX round_alerts_tx ON round_alerts (tx_hash, kind) WHERE tx_hash IS NOT NULL;
CREATE INDEX round_alerts_open ON round_alerts (raised_at) WHERE resolved_at IS NULL;
