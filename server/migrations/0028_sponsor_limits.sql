-- Sponsored claims and farms (docs/operations.md#the-relayer-sponsored-claims): each claim keeps the
-- client network it was asked from (an IPv4 /24 or IPv6 /48), and the sponsor's ledger with it, so
-- one network can spend only its share of the day's fee budget.
ALTER TABLE sponsored_claims ADD COLUMN network text CHECK (length(network) <= 64);
ALTER TABLE sponsor_spending ADD COLUMN network text;
CREATE INDEX sponsor_spending_network_day ON sponsor_spending (network, created_at);

CREATE OR REPLACE FUNCTION record_sponsor_spending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sponsor_spending (claim_id, created_at, wei, network)
  VALUES (NEW.id, NEW.created_at,
          CASE WHEN NEW.status IN ('queued', 'sent') THEN NEW.reserved_wei ELSE coalesce(NEW.spent_wei, 0) END,
          NEW.network)
  ON CONFLICT (claim_id) DO UPDATE SET wei = excluded.wei;
  RETURN NULL;
END;
$$;
