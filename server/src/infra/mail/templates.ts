// The texts of the mails the product sends.
import { shortAddress } from '@crw/core';
import { getAddress } from 'ethers';
import type { NewMail } from './outbox';

/** Names the wallet being confirmed, so a member can tell a registration made by someone else. */
export function confirmationMail(to: string, url: string, wallet: string): NewMail {
  const shown = shortAddress(getAddress(wallet.toLowerCase()));
  return {
    to,
    subject: 'Confirm your e-mail address',
    text:
      `Welcome to the community rewards wallet!\n\n` +
      `Confirm your e-mail address to start earning CAPs. This confirms the account whose wallet is ${shown}:\n${url}\n\n` +
      `Not you, or not your wallet? Do not open the link. Someone may have used your e-mail address: ` +
      `sign up yourself with this address and your own account replaces the unconfirmed one. ` +
      `If you did not want an account, you can ignore this mail.`,
  };
}

export function passwordResetMail(to: string, url: string): NewMail {
  return {
    to,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of your community rewards wallet account.\n\nChoose a new password (the link works once, for 1 hour):\n${url}\n\nYour wallet stays locked with your old password: after the reset you will unlock it once with your old password or your 12-word recovery phrase.\n\nIf you did not ask for this, you can ignore this mail.`,
  };
}
