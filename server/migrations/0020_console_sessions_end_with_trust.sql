-- A session opens the operator console only on the trust it passed as it began: the member's
-- password and their second factor (session_two_factor, migration 0017). When either changes, by
-- whatever path (better-auth's enrolment and turning it off, our password change, a reset, SQL
-- run by hand), what that session passed no longer holds (docs/security.md#the-operator-console).
-- Revoking the operator role is ours and ends every session (features/operator/operators.ts).

-- Two-factor turned off or on, or its secret replaced or removed: every session that passed the
-- old factor ends. Deleting the row announces it to every process (session_ended, migration
-- 0010). Sessions that never passed a second factor keep what they had: a member's session, which
-- never opens the console. better-auth gives the session that made the change a new one after
-- this, so that one stays signed in.
CREATE FUNCTION end_sessions_past_two_factor(member text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM session s USING session_two_factor t WHERE t.session_id = s.id AND s."userId" = member;
$$;

CREATE FUNCTION two_factor_turned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM end_sessions_past_two_factor(OLD.id);
  RETURN NULL;
END;
$$;
CREATE TRIGGER two_factor_turned AFTER UPDATE OF "twoFactorEnabled" ON "user" FOR EACH ROW
  WHEN (OLD."twoFactorEnabled" IS DISTINCT FROM NEW."twoFactorEnabled")
  EXECUTE FUNCTION two_factor_turned();

CREATE FUNCTION two_factor_rekeyed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM end_sessions_past_two_factor(OLD."userId");
  RETURN NULL;
END;
$$;
CREATE TRIGGER two_factor_secret_replaced AFTER UPDATE OF secret ON "twoFactor" FOR EACH ROW
  WHEN (OLD.secret IS DISTINCT FROM NEW.secret) EXECUTE FUNCTION two_factor_rekeyed();
CREATE TRIGGER two_factor_removed AFTER DELETE ON "twoFactor" FOR EACH ROW
  EXECUTE FUNCTION two_factor_rekeyed();

-- The password changed: the member's other sessions are ended by the change itself (or, for a
-- reset, all of them by better-auth); the session that made it stays the member's, but no
-- session keeps the console: it takes a new sign-in with the new password and the code.
CREATE FUNCTION password_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM session_two_factor t USING session s
   WHERE s.id = t.session_id AND s."userId" = OLD."userId";
  RETURN NULL;
END;
$$;
CREATE TRIGGER password_replaced AFTER UPDATE OF password ON account FOR EACH ROW
  WHEN (OLD.password IS DISTINCT FROM NEW.password) EXECUTE FUNCTION password_replaced();
