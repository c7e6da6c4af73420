-- The day's sponsor budget is a ledger that deleting an account does not touch: one row per
-- sponsored claim with what it holds or cost, and no reference to the member (a sponsored claim
-- goes with its member; its spend stays). A trigger keeps it, so no path that moves a claim on
-- can forget to.
CREATE TABLE sponsor_spending (
  claim_id bigint PRIMARY KEY,           -- sponsored_claims.id; no foreign key: the row outlives the claim
  created_at timestamptz NOT NULL,       -- when the claim was asked for: the day it counts in
  wei numeric(78, 0) NOT NULL            -- its reservation while queued or sent, then its share of the fee
);
CREATE INDEX sponsor_spending_day ON sponsor_spending (created_at);

CREATE FUNCTION record_sponsor_spending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sponsor_spending (claim_id, created_at, wei)
  VALUES (NEW.id, NEW.created_at,
          CASE WHEN NEW.status IN ('queued', 'sent') THEN NEW.reserved_wei ELSE coalesce(NEW.spent_wei, 0) END)
  ON CONFLICT (claim_id) DO UPDATE SET wei = excluded.wei;
  RETURN NULL;
END;
$$;

CREATE TRIGGER sponsored_claims_spending AFTER INSERT OR UPDATE OF status, reserved_wei, spent_wei
  ON sponsored_claims FOR EACH ROW EXECUTE FUNCTION record_sponsor_spending();

INSERT INTO sponsor_spending (claim_id, created_at, wei)
SELECT id, created_at,
       CASE WHEN status IN ('queued', 'sent') THEN reserved_wei ELSE coalesce(spent_wei, 0) END
  FROM sponsored_claims;
