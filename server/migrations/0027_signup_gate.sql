-- The sign-up gate's used solutions (docs/security.md#the-sign-up-gate). A solution works once: its
-- challenge's nonce is the key, so a second use, from any process or at the same moment, conflicts
-- and is refused. A registration's row also keeps the client network (IPv4 /24, IPv6 /48) it came
-- from, which is how a network's sign-ups in the last hour are counted. Nothing here names a
-- member. Rows are deleted once `keep_until` has passed: the challenge's expiry (after which it is
-- refused anyway), or the hour a registration counts for its network.
CREATE TABLE signup_gate_uses (
  nonce      text PRIMARY KEY CHECK (nonce ~ '^[0-9a-f]{32}$'),
  form       text NOT NULL CHECK (form IN ('register', 'resend', 'reset')),
  network    text CHECK (length(network) <= 64),
  registered boolean NOT NULL DEFAULT false,
  used_at    timestamptz NOT NULL DEFAULT now(),
  keep_until timestamptz NOT NULL
);
CREATE INDEX signup_gate_uses_network_idx ON signup_gate_uses (network, used_at) WHERE registered;
CREATE INDEX signup_gate_uses_keep_until_idx ON signup_gate_uses (keep_until);
