-- Web push for the installed app (issue 30; docs/decisions/0023-notifications.md): a member's
-- devices subscribe on the account page, each to the topics it chose (the same as e-mail's:
-- credits, rounds), and every notification queued for the member is also pushed to each of their
-- subscriptions of its topic, whatever their mail choice. Restates queue_notification of
-- 0033_mail_notifications.sql whole: its mail part is unchanged, the push part is added.

-- One row per browser subscription (a device, a browser profile). The endpoint is the push
-- service's address for that subscription; p256dh and auth are the browser's keys the payload is
-- encrypted to (RFC 8291). A subscription the push service reports gone (404/410) is deleted.
CREATE TABLE push_subscriptions (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  endpoint        text NOT NULL UNIQUE CHECK (length(endpoint) <= 1024),
  p256dh          text NOT NULL CHECK (length(p256dh) <= 128),
  auth            text NOT NULL CHECK (length(auth) <= 64),
  topics          text[] NOT NULL DEFAULT ARRAY['credits', 'rounds']
                    CHECK (topics <@ ARRAY['credits', 'rounds']),
  -- What the member sees to tell their devices apart ("Chrome on Android"), from the user agent.
  label           text NOT NULL DEFAULT '' CHECK (length(label) <= 100),
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_success_at timestamptz
);
CREATE INDEX push_subscriptions_member_idx ON push_subscriptions (user_id);

-- A push waits here as its template and figures, like a notification mail: written when it is
-- sent (so a push about REME claimed meanwhile is skipped), leased to one process at a time,
-- retried with backoff, given up once older than its time to live.
CREATE TABLE push_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id bigint NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  topic           text NOT NULL CHECK (topic IN ('credits', 'rounds')),
  template        text NOT NULL,
  params          jsonb NOT NULL,
  status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sent', 'skipped', 'expired')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX push_deliveries_due_idx ON push_deliveries (id) WHERE status = 'pending';
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);
CREATE INDEX push_deliveries_done_idx ON push_deliveries (created_at) WHERE status <> 'pending';

-- The one way a notification is queued: a mail by the member's mail choice for its topic (as 0033
-- wrote it), and a push to each of the member's subscriptions of that topic.
CREATE OR REPLACE FUNCTION queue_notification(p_user text, p_topic text, p_template text, p_params jsonb)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_mails (user_id, to_address, topic, template, params)
  SELECT p.id, p.email, p_topic, p_template, p_params
    FROM profiles p JOIN "user" u ON u.id = p.id
   WHERE p.id = p_user AND u."emailVerified"
     AND CASE p_topic WHEN 'credits' THEN p.mail_credits = 'instant' ELSE p.mail_rounds END;
  INSERT INTO push_deliveries (subscription_id, topic, template, params)
  SELECT s.id, p_topic, p_template, p_params
    FROM push_subscriptions s
   WHERE s.user_id = p_user AND p_topic = ANY (s.topics);
END;
$$;
