-- Rounds in review (issue 28; docs/decisions/0027-rounds-in-review.md): a root proposed on chain
-- pays only after the distributor's review window, and a guardian may cancel it before.

-- A round of this server's is *in_review* from its proposal until the chain makes it active
-- (then *published*, as before), or *cancelled* by a guardian. One round at a time is open:
-- prepared, sent or in review.
ALTER TABLE distribution_rounds DROP CONSTRAINT distribution_rounds_status_check;
ALTER TABLE distribution_rounds ADD CONSTRAINT distribution_rounds_status_check
  CHECK (status IN ('prepared', 'sent', 'in_review', 'published', 'cancelled'));
ALTER TABLE distribution_rounds
  -- When members can claim it: the distributor's activeAt for the round.
  ADD COLUMN active_at timestamptz,
  ADD COLUMN cancelled_at timestamptz;
DROP INDEX distribution_rounds_one_open;
CREATE UNIQUE INDEX distribution_rounds_one_open ON distribution_rounds ((true))
  WHERE status IN ('prepared', 'sent', 'in_review');

-- The distributor's RootProposed (round_index, root, amount: the total, active_at: when it pays,
-- seconds) and RootCancelled (round_index, from_address: the guardian, amount: what went back to
-- the treasury). root_published rows are an older distributor's.
ALTER TABLE chain_events DROP CONSTRAINT chain_events_kind_check;
ALTER TABLE chain_events ADD CONSTRAINT chain_events_kind_check
  CHECK (kind IN ('transfer', 'claimed', 'root_published', 'root_proposed', 'root_cancelled'));
ALTER TABLE chain_events ADD COLUMN active_at bigint;

-- What the follower read from the distributor's status() at its last block: round_index is the
-- active round (the one claims prove against); latest_* the newest round proposed, in review while
-- latest_index > round_index and it is not cancelled.
ALTER TABLE chain_follower_state
  ADD COLUMN latest_index integer NOT NULL DEFAULT 0,
  ADD COLUMN latest_active_at bigint,
  ADD COLUMN latest_cancelled boolean NOT NULL DEFAULT false,
  ADD COLUMN claims_paused boolean NOT NULL DEFAULT false;
