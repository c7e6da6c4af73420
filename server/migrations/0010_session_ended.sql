-- Every server process remembers, for a short while, the sessions better-auth vouched for
-- (auth/session.ts). When a session row goes — sign-out, password reset, revocation, or its user
-- deleted (the cascade) — every process hears of it at commit and forgets it: the payload is the
-- SHA-256 of the token, so the notice carries no credential.
CREATE FUNCTION notify_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ended', encode(sha256(convert_to(OLD.token, 'UTF8')), 'hex'));
  RETURN NULL;
END;
$$;

CREATE TRIGGER session_ended AFTER DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION notify_session_ended();

-- A token replaced in place (nothing does this today) ends the old one just the same.
CREATE TRIGGER session_token_replaced AFTER UPDATE OF token ON "session" FOR EACH ROW
  WHEN (OLD.token IS DISTINCT FROM NEW.token) EXECUTE FUNCTION notify_session_ended();
