-- Notifications by mail (docs/product.md#notifications, docs/decisions/0023-notifications.md):
-- each member chooses per topic; notification mails wait behind account and security mails; a
-- member may let the community claim each round for them.

-- The member's choices. credits: each credit as it happens, a daily or weekly digest, or none;
-- rounds: a mail when a round makes REME claimable (and when it was claimed for them); security
-- mails cannot be turned off. A topic's version moves at each change of that topic, so an
-- unsubscribe link made before the change no longer works (a replay changes nothing).
ALTER TABLE profiles
  ADD COLUMN mail_credits text NOT NULL DEFAULT 'instant'
    CHECK (mail_credits IN ('instant', 'daily', 'weekly', 'off')),
  ADD COLUMN mail_rounds boolean NOT NULL DEFAULT true,
  ADD COLUMN claim_for_me boolean NOT NULL DEFAULT true,
  ADD COLUMN mail_credits_version integer NOT NULL DEFAULT 0,
  ADD COLUMN mail_rounds_version integer NOT NULL DEFAULT 0,
  -- The end of the period the member's last digest covered (null: none yet).
  ADD COLUMN digest_until timestamptz;

-- The digests' pass looks only at the members who chose one.
CREATE INDEX profiles_digest_due ON profiles (digest_until) WHERE mail_credits IN ('daily', 'weekly');

-- A notification mail waits in its own queue, behind every account and security mail of the outbox
-- (a round for 100,000 members never delays a confirmation), as its template and figures: it is
-- written when it is delivered, so 100,000 round mails are 100,000 small rows, and a mail of a
-- topic the member turned off meanwhile is skipped, not sent. Mails go to confirmed addresses only.
CREATE TABLE notification_mails (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  to_address      text NOT NULL,
  topic           text NOT NULL CHECK (topic IN ('credits', 'rounds')),
  template        text NOT NULL,
  params          jsonb NOT NULL,
  subject         text,                     -- as written when it was sent
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'skipped')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
-- The dev mailbox keeps notification mails too.
ALTER TABLE dev_mailbox
  ALTER COLUMN outbox_id DROP NOT NULL,
  ADD COLUMN notification_id bigint UNIQUE REFERENCES notification_mails (id) ON DELETE CASCADE,
  ADD CONSTRAINT dev_mailbox_source CHECK (num_nonnulls(outbox_id, notification_id) = 1);
CREATE INDEX notification_mails_due_idx ON notification_mails (id) WHERE status = 'pending';
CREATE INDEX notification_mails_member_idx ON notification_mails (user_id, id DESC);

-- "Claim for me" of a member who joins: CLAIM_FOR_ME_DEFAULT, written at every start.
ALTER TABLE reward_policy ADD COLUMN claim_for_me_default boolean NOT NULL DEFAULT true;
CREATE FUNCTION profiles_claim_for_me_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.claim_for_me := coalesce((SELECT claim_for_me_default FROM reward_policy), true);
  RETURN NEW;
END;
$$;
CREATE TRIGGER profiles_claim_for_me BEFORE INSERT ON profiles
  FOR EACH ROW EXECUTE FUNCTION profiles_claim_for_me_default();

-- The one way a notification mail is queued: the member's choice for its topic decides.
CREATE FUNCTION queue_notification(p_user text, p_topic text, p_template text, p_params jsonb)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_mails (user_id, to_address, topic, template, params)
  SELECT p.id, p.email, p_topic, p_template, p_params
    FROM profiles p JOIN "user" u ON u.id = p.id
   WHERE p.id = p_user AND u."emailVerified"
     AND CASE p_topic WHEN 'credits' THEN p.mail_credits = 'instant' ELSE p.mail_rounds END;
END;
$$;

-- Each credit a member earns from others (a friend joining at any level, a care action) is a
-- notification; their own sign-up bonus is not (they are looking at it).
CREATE FUNCTION notify_credit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind IN ('referral', 'care_action') AND NEW.status <> 'void' THEN
    PERFORM queue_notification(NEW.user_id, 'credits', 'credit', jsonb_build_object('ledgerId', NEW.id));
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER reward_ledger_notify AFTER INSERT ON reward_ledger
  FOR EACH ROW EXECUTE FUNCTION notify_credit();

-- "Claim for me": a claim the community sends without the member asking carries no signature.
ALTER TABLE sponsored_claims
  ALTER COLUMN signature DROP NOT NULL,
  ALTER COLUMN deadline DROP NOT NULL,
  ADD COLUMN for_me boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT sponsored_claims_signed CHECK (for_me OR signature IS NOT NULL AND deadline IS NOT NULL);

-- A claim sent for the member and paid tells them so.
CREATE FUNCTION notify_claimed_for_me() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.for_me AND NEW.status = 'confirmed' AND OLD.status <> 'confirmed' AND NEW.reason IS NULL THEN
    PERFORM queue_notification(NEW.user_id, 'rounds', 'claimed-for-you', jsonb_build_object('claimId', NEW.id));
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER sponsored_claims_notify AFTER UPDATE OF status ON sponsored_claims
  FOR EACH ROW EXECUTE FUNCTION notify_claimed_for_me();

-- What each round told its members: when its notices went out, and the reminders sent after 7 and
-- 30 days to members who had not claimed.
ALTER TABLE distribution_rounds ADD COLUMN notices_at timestamptz,
  -- The reminders already sent for the round: 0 none, 7 the first, 30 both. A round's members can
  -- only become ineligible (they claim), so each reminder is looked for once.
  ADD COLUMN reminders_sent smallint NOT NULL DEFAULT 0 CHECK (reminders_sent IN (0, 7, 30));
UPDATE distribution_rounds SET notices_at = published_at WHERE status = 'published';
CREATE TABLE claim_reminders (
  user_id     text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  round_index integer NOT NULL,
  after_days  smallint NOT NULL CHECK (after_days IN (7, 30)),
  sent_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (round_index, after_days, user_id)
);
