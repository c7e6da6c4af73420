-- The funding invariant (docs/security.md#the-funding-invariant): after every publish the
-- distributor holds at least what the current round still owes, Σ max(0, cumulative − claimed).
-- The process that follows the chain checks it from its index (both figures at the same block)
-- and keeps the last check here, for /metrics in every process and for `ops fund-distributor`.
CREATE TABLE distributor_funding (
  id           boolean PRIMARY KEY DEFAULT true CHECK (id),
  round_index  integer NOT NULL,
  block_number bigint NOT NULL,
  balance      numeric(78, 0) NOT NULL,
  owed         numeric(78, 0) NOT NULL,
  checked_at   timestamptz NOT NULL DEFAULT now()
);

