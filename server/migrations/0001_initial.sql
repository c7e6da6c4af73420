-- The product's tables and the mail outbox. Amounts of REME/ETH are integers in base units
-- (numeric(78,0)); CAPs are whole numbers (bigint). Profile ids are the auth user's id.

CREATE TABLE profiles (
  id            text PRIMARY KEY,
  username      text NOT NULL,
  full_name     text NOT NULL DEFAULT '',
  referral_link text UNIQUE,                -- the member's own referral code
  email         text NOT NULL UNIQUE,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_wallets (
  user_id          text PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  wallet_address   text NOT NULL UNIQUE CHECK (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  encrypted_wallet text NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_token_distributions (
  user_id                text PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  signup_tokens          numeric(78, 0) NOT NULL DEFAULT 0 CHECK (signup_tokens >= 0),
  earned_signup_tokens   numeric(78, 0) NOT NULL DEFAULT 0 CHECK (earned_signup_tokens >= 0),
  earned_referral_tokens numeric(78, 0) NOT NULL DEFAULT 0 CHECK (earned_referral_tokens >= 0),
  incoming_tokens        numeric(78, 0) NOT NULL DEFAULT 0 CHECK (incoming_tokens >= 0),
  tokens_for_claiming    numeric(78, 0) NOT NULL DEFAULT 0 CHECK (tokens_for_claiming >= 0),
  rrp_balance            bigint NOT NULL DEFAULT 0 CHECK (rrp_balance >= 0),     -- CAPs from referrals
  activity_caps          bigint NOT NULL DEFAULT 0 CHECK (activity_caps >= 0),   -- CAPs from care actions
  distributed_tokens     numeric(78, 0) NOT NULL DEFAULT 0 CHECK (distributed_tokens >= 0),
  updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE referrals (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  referrer_id   text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  referred_id   text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  referral_code text NOT NULL,
  level         smallint NOT NULL CHECK (level BETWEEN 1 AND 3),
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (referrer_id <> referred_id),
  UNIQUE (referred_id, level)                -- a member is referred at most once, per level
);
CREATE INDEX referrals_referrer_level_idx ON referrals (referrer_id, level);

-- Transactional outbox: a mail is inserted in the transaction of the change that causes it.
CREATE TABLE mail_outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  to_address      text NOT NULL,
  subject         text NOT NULL,
  text_body       text NOT NULL,
  html_body       text,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'pending';

-- What the dev transport delivered (outside production); one row per outbox mail.
CREATE TABLE dev_mailbox (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  outbox_id    bigint NOT NULL UNIQUE REFERENCES mail_outbox (id) ON DELETE CASCADE,
  to_address   text NOT NULL,
  subject      text NOT NULL,
  text_body    text NOT NULL,
  html_body    text,
  delivered_at timestamptz NOT NULL DEFAULT now()
);
