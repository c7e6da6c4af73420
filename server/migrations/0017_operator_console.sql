-- The operator console. Operators are members with the operator role (granted and
-- revoked with `npm run ops -- grant-operator / revoke-operator`); the console answers only a
-- session that passed two-factor sign-in; every operator action is kept in an append-only log.

CREATE TABLE operators (
  user_id    text PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  granted_at timestamptz NOT NULL DEFAULT now()
);

-- A session passed two-factor sign-in when its member had it on as the session began: better-auth
-- creates a two-factor member's session only after the code (there is no "trust this device",
-- auth.ts), and turning it on creates a new session after the flag is set. Sessions begun before
-- are not in this table, so an older session on another device never opens the console.
CREATE TABLE session_two_factor (
  session_id text PRIMARY KEY REFERENCES session (id) ON DELETE CASCADE
);
CREATE FUNCTION note_session_two_factor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "user" WHERE id = NEW."userId" AND "twoFactorEnabled" IS TRUE) THEN
    INSERT INTO session_two_factor (session_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER session_two_factor_noted AFTER INSERT ON session
  FOR EACH ROW EXECUTE FUNCTION note_session_two_factor();

-- Every operator action: who (an operator's member id and e-mail, or the API key), what, on whom,
-- when, from which address, and the request's idempotency key. Rows are only ever added.
CREATE TABLE operator_audit (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at              timestamptz NOT NULL DEFAULT now(),
  actor           text NOT NULL CHECK (actor IN ('console', 'api-key')),
  operator_id     text,
  operator_email  text,
  action          text NOT NULL,
  target          text,
  detail          jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip              text,
  idempotency_key text,
  request_id      text
);
CREATE INDEX operator_audit_at_idx ON operator_audit (at DESC, id DESC);
CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_audit is append-only';
END;
$$;
CREATE TRIGGER operator_audit_no_change BEFORE UPDATE OR DELETE ON operator_audit
  FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();
CREATE TRIGGER operator_audit_no_truncate BEFORE TRUNCATE ON operator_audit
  FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_append_only();

-- The members table searches by the start of a name, e-mail, wallet or referral code and sorts by
-- arrival or name, over a million members, from these indexes (a text_pattern_ops index answers a
-- prefix but cannot give the collation's order, hence two on the name).
CREATE INDEX profiles_email_prefix_idx ON profiles (email text_pattern_ops);
CREATE INDEX profiles_name_prefix_idx ON profiles (lower(full_name) text_pattern_ops, id);
CREATE INDEX profiles_name_order_idx ON profiles (lower(full_name), id);
CREATE INDEX profiles_code_prefix_idx ON profiles (referral_link text_pattern_ops);
CREATE INDEX profiles_created_idx ON profiles (created_at DESC, id DESC);
CREATE INDEX user_wallets_address_prefix_idx ON user_wallets (wallet_address text_pattern_ops);
-- A member's mails, newest first.
CREATE INDEX mail_outbox_to_idx ON mail_outbox (to_address, id DESC);
