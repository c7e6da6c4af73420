-- Security events (issue 30; docs/security.md#security-events): what happened to a member's account
-- that they must hear of — a sign-in on a device not seen before, the password changed, two-factor
-- sign-in turned on or off, their data downloaded. Each is written where it happens, with its mail
-- (always sent, no unsubscribe), and shown in the member's notification centre.
-- 'deletion_requested' and 'passkey_added' are reserved: deleting an account is immediate and
-- leaves nothing that names the member (so neither a row nor a mail), and there are no passkeys yet.
CREATE TABLE security_events (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  kind    text NOT NULL CHECK (kind IN ('new_device', 'password_changed', 'two_factor_on',
                                        'two_factor_off', 'export', 'deletion_requested',
                                        'passkey_added')),
  at      timestamptz NOT NULL DEFAULT now(),
  -- { "device": "Chrome on Android", "network": "203.0.113.0/24" }: a name from the user agent
  -- (core's deviceName, a fixed vocabulary) and the client's network; never a token, a cookie or
  -- the user agent itself.
  detail  jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(detail) = 'object')
);
CREATE INDEX security_events_user_at_idx ON security_events (user_id, at DESC);

-- An event is a record of what happened: the server never changes one (it goes with the account).
CREATE FUNCTION security_events_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'security events are not changed';
END;
$$;
CREATE TRIGGER security_events_unchanged BEFORE UPDATE ON security_events
  FOR EACH ROW EXECUTE FUNCTION security_events_unchanged();

-- The devices (browsers) each member signed in on, by the SHA-256 of the random device cookie the
-- server gave that browser (never the cookie itself): a sign-in whose browser carries no cookie
-- this member signed in with before is on a new device. The newest few per member are kept.
CREATE TABLE member_devices (
  user_id       text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  device_hash   text NOT NULL CHECK (device_hash ~ '^[0-9a-f]{64}$'),
  label         text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device_hash)
);
