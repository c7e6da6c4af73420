-- The signal never_opened (docs/operations.md#the-signals): the confirmation link signs a member
-- in, and a person then lands on the dashboard, which asks for their details; a script that only
-- fetches the link never does. The first details asked for mark the sign-up opened; when the
-- hold ends, a joining never opened is flagged with weight 1 (alone it holds nothing).
ALTER TABLE signup_signals ADD COLUMN opened_at timestamptz;
-- Sign-ups from before this signal existed get the benefit of the doubt.
UPDATE signup_signals SET opened_at = created_at;

CREATE OR REPLACE FUNCTION release_due_credits(batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  released integer := 0;
  c record;
BEGIN
  PERFORM flag_cash_outs();
  INSERT INTO reward_flags (subject_id, signal, weight, detail)
  SELECT DISTINCT l.subject_id, 'never_opened', 1, ''
    FROM reward_ledger l JOIN signup_signals s ON s.user_id = l.subject_id
   WHERE l.status = 'held' AND l.release_at <= now() AND s.opened_at IS NULL
  ON CONFLICT DO NOTHING;
  FOR c IN
    SELECT l.id FROM reward_ledger l
     WHERE l.status = 'held' AND l.release_at <= now() AND NOT joining_waits(l.subject_id)
     ORDER BY l.release_at, l.id
     LIMIT batch
     FOR UPDATE SKIP LOCKED
  LOOP
    IF settle_held_credit(c.id, 'released', NULL) THEN
      released := released + 1;
    END IF;
  END LOOP;
  DELETE FROM signup_signals s
   WHERE s.created_at < now() - make_interval(hours => (SELECT hold_hours FROM reward_policy))
     AND NOT EXISTS (SELECT 1 FROM reward_ledger l WHERE l.subject_id = s.user_id AND l.status = 'held');
  RETURN released;
END;
$$;
