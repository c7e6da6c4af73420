-- Members who joined through a referral link were stored with the placeholder name
-- "User User" (the original sign-up form's fixed first and last name). Greetings use the full name,
-- else the username, else the e-mail's local part; the placeholder is cleared so they say the name
-- the member gave.
UPDATE profiles SET full_name = '' WHERE full_name = 'User User';
UPDATE "user" SET name = '' WHERE name = 'User User';
