-- Profiles belong to auth users (better-auth's "user" table, created before these migrations run).
ALTER TABLE profiles
  ADD CONSTRAINT profiles_user_fk FOREIGN KEY (id) REFERENCES "user" (id) ON DELETE CASCADE;

-- The account-deletion routine, for testing only (wired to no visible control).
CREATE FUNCTION delete_current_user(user_uuid text) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "user" WHERE id = user_uuid;   -- cascades to sessions, accounts, profile, wallet, rows
  IF NOT FOUND THEN
    RETURN jsonb_build_object('success', false, 'message', 'User not found');
  END IF;
  RETURN jsonb_build_object('success', true, 'message', 'Account deleted');
END;
$$;
