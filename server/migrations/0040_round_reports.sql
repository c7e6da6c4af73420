-- "Something wrong? Tell the community" (issue 28): a member's word about their own line in a
-- round in review, mailed to the operators and listed in the console's Guardian section, so a
-- wrong round can be cancelled before it pays. One per member and round; deleting the account
-- deletes it.
CREATE TABLE round_reports (
  id          serial PRIMARY KEY,
  round_index integer NOT NULL,
  user_id     text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  message     text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 1000),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (round_index, user_id)
);
