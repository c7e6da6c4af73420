// The amounts the database credits (credit_confirmed_member, process_referral) come from core's
// constants, the one place they are written: each migration run writes them into the single row of
// reward_amounts (migration 0016), so a change in core reaches SQL at the next start.
import {
  REFERRAL_CAPS_BY_LEVEL,
  REFERRAL_REME_BY_LEVEL,
  SIGNUP_CAPS,
  SIGNUP_REME,
} from '@crw/core';

const integer = (n: number | bigint) => {
  const text = n.toString();
  if (!/^\d+$/.test(text)) throw new Error(`reward amount ${text} is not a whole number`);
  return text;
};

/** The statement that writes core's amounts; a no-op before migration 0016 made the table. */
export function writeRewardAmountsSql(): string {
  const caps = REFERRAL_CAPS_BY_LEVEL.map(integer).join(',');
  const reme = REFERRAL_REME_BY_LEVEL.map(integer).join(',');
  return `DO $$ BEGIN
  IF to_regclass('reward_amounts') IS NOT NULL THEN
    INSERT INTO reward_amounts (signup_caps, signup_reme, referral_caps, referral_reme)
    VALUES (${integer(SIGNUP_CAPS)}, ${integer(SIGNUP_REME)}, ARRAY[${caps}]::bigint[], ARRAY[${reme}]::numeric[])
    ON CONFLICT (only_row) DO UPDATE SET
      signup_caps = EXCLUDED.signup_caps, signup_reme = EXCLUDED.signup_reme,
      referral_caps = EXCLUDED.referral_caps, referral_reme = EXCLUDED.referral_reme,
      updated_at = now()
    WHERE (reward_amounts.signup_caps, reward_amounts.signup_reme, reward_amounts.referral_caps,
           reward_amounts.referral_reme)
      IS DISTINCT FROM (EXCLUDED.signup_caps, EXCLUDED.signup_reme, EXCLUDED.referral_caps,
                        EXCLUDED.referral_reme);
  END IF;
END $$;`;
}
