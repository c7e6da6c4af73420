-- A million-member round (issue 32; docs/decisions/0024-million-member-round.md): the foreign key
-- from each leaf to its round was checked once per inserted leaf, a query per row, about 2 of the
-- 4.4 s PostgreSQL took to store a million leaves. A round's leaves are written only by its own
-- preparation, in the transaction that inserts the round's row first (prepareRound in
-- domain/distribution/rounds.ts), so the check found nothing that could go wrong. What the key also
-- did, deleting a round's leaves with the round (a cut journal's later rounds, dropped-rounds.ts),
-- a trigger does now, one statement per deleted round.
ALTER TABLE distribution_entries DROP CONSTRAINT distribution_entries_round_index_fkey;

CREATE FUNCTION delete_round_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM distribution_entries WHERE round_index = OLD.round_index;
  RETURN OLD;
END;
$$;
CREATE TRIGGER distribution_rounds_delete_entries AFTER DELETE ON distribution_rounds
  FOR EACH ROW EXECUTE FUNCTION delete_round_entries();
