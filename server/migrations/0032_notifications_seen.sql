-- The notification centre (docs/product.md#the-dashboard): what happened to a member's rewards is
-- their activity (reward ledger, rounds, claims); what they have not seen yet is what happened
-- after the moment they last opened the bell, kept here. Null: never opened, everything is new.
ALTER TABLE profiles ADD COLUMN notifications_seen_at timestamptz;
