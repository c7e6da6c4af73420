-- A Gmail address written with other dots or a +tag (and any address with a +tag) is the same
-- mailbox, so the same account for uniqueness (docs/security.md#one-reward-per-person): the sign-up
-- looks confirmed accounts up by canonical_email (0024), through this index. Not unique: accounts
-- made before this rule may share a mailbox, and keep their addresses.
CREATE INDEX user_canonical_email ON "user" (canonical_email(email));
