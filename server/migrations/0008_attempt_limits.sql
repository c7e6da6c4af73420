-- Attempt counters (sign-in, sign-up, reset, resend, hand-off redeem) shared by every server
-- process: rate-limiter-flexible's PostgreSQL store reads and writes them (docs/decisions/0010).
-- Its INSERT names no columns, so these three keep this order; `expire` is epoch milliseconds.
CREATE TABLE attempt_limits (
  key    text PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
