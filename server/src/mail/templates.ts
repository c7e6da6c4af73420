// The texts of the mails the product sends.
import type { NewMail } from './outbox';

export function confirmationMail(to: string, url: string): NewMail {
  return {
    to,
    subject: 'Confirm your e-mail address',
    text: `Welcome to the community rewards wallet!\n\nConfirm your e-mail address to start earning CAPs:\n${url}\n\nIf you did not create an account, you can ignore this mail.`,
  };
}

export function passwordResetMail(to: string, url: string): NewMail {
  return {
    to,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of your community rewards wallet account.\n\nChoose a new password (the link works once, for 1 hour):\n${url}\n\nYour wallet stays locked with your old password: after the reset you will unlock it once with your old password or your 12-word recovery phrase.\n\nIf you did not ask for this, you can ignore this mail.`,
  };
}
