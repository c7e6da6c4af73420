-- The operator audit log keeps who acted and on whom by member id, never by e-mail address: an
-- e-mail in a row that may never change would outlive the member's deletion, which keeps nothing
-- that names them (docs/security.md, "Deleting the account"). The console shows an operator's
-- e-mail from their profile while they have one.

-- Every e-mail address in a JSON value (strings and keys, at any depth) becomes "[e-mail]".
CREATE FUNCTION without_email_addresses(value jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN CASE jsonb_typeof(value)
    WHEN 'string' THEN to_jsonb(without_email_addresses(value #>> '{}'))
    WHEN 'object' THEN COALESCE(
      (SELECT jsonb_object_agg(without_email_addresses(k), without_email_addresses(v))
         FROM jsonb_each(value) AS e(k, v)),
      '{}'::jsonb)
    WHEN 'array' THEN COALESCE(
      (SELECT jsonb_agg(without_email_addresses(v) ORDER BY n)
         FROM jsonb_array_elements(value) WITH ORDINALITY AS a(v, n)),
      '[]'::jsonb)
    ELSE value
  END;
END;
$$;
CREATE FUNCTION without_email_addresses(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(value, '[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+', '[e-mail]', 'g')
$$;

-- Whatever a caller passes (an operator's free text, a mail server's error naming the recipient),
-- no address is written.
CREATE FUNCTION operator_audit_without_emails() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.target := without_email_addresses(NEW.target);
  NEW.detail := without_email_addresses(NEW.detail);
  RETURN NEW;
END;
$$;
CREATE TRIGGER operator_audit_no_emails BEFORE INSERT ON operator_audit
  FOR EACH ROW EXECUTE FUNCTION operator_audit_without_emails();

-- The rows written so far: the one rewrite the log ever gets, by its owner, in this migration.
ALTER TABLE operator_audit DISABLE TRIGGER operator_audit_no_change;
UPDATE operator_audit
   SET target = without_email_addresses(target),
       detail = without_email_addresses(detail - 'email' - 'to')
 WHERE target IS DISTINCT FROM without_email_addresses(target)
    OR detail IS DISTINCT FROM without_email_addresses(detail - 'email' - 'to');
ALTER TABLE operator_audit ENABLE TRIGGER operator_audit_no_change;
ALTER TABLE operator_audit DROP COLUMN operator_email;
