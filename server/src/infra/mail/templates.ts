// The mails the product sends: each an HTML part (one button, inline styles, for Gmail and Outlook)
// and a plain-text part with the same words, its link on its own line after a label.
import { shortAddress, type SecurityEventKind } from '@crw/core';
import { getAddress } from 'ethers';
import type { NewMail } from './outbox';

const BRAND = 'Community rewards wallet';

/** A mail's words: paragraphs before its one link, the link, paragraphs after it. */
interface MailContent {
  to: string;
  subject: string;
  heading: string;
  before: string[];
  /** The button's words in the HTML part; in the text part, "<label>: <url>" on its own line. */
  action: { label: string; url: string };
  after: string[];
  /** A notification's way out: why the member gets it and the link that stops its topic. */
  unsubscribe?: { why: string; url: string };
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text (or an attribute value) made safe to put in HTML. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => htmlEscapes[c]!);
}

const font = `font-family:Arial,Helvetica,sans-serif;`;
const paragraph = (text: string) =>
  `<p style="margin:0 0 16px;${font}font-size:16px;line-height:24px;color:#1f2328;">${escapeHtml(text)}</p>`;

function htmlOf(mail: MailContent): string {
  const { heading, before, action, after } = mail;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(mail.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f7;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:24px 32px 0;${font}font-size:14px;line-height:20px;font-weight:bold;color:#4a3db8;">${escapeHtml(BRAND)}</td></tr>
<tr><td style="padding:16px 32px 32px;">
<h1 style="margin:0 0 16px;${font}font-size:22px;line-height:30px;color:#1f2328;">${escapeHtml(heading)}</h1>
${before.map(paragraph).join('\n')}
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;">
<tr><td style="border-radius:6px;background-color:#6a5ae0;"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 24px;${font}font-size:16px;line-height:24px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(action.label)}</a></td></tr>
</table>
${after.map(paragraph).join('\n')}
</td></tr>
</table>
${mail.unsubscribe ? footerOf(mail.unsubscribe) : ''}
</td></tr>
</table>
</body>
</html>
`;
}

function footerOf(unsubscribe: { why: string; url: string }): string {
  return `<p style="margin:16px 0 0;max-width:560px;${font}font-size:13px;line-height:20px;color:#5b6270;">${escapeHtml(unsubscribe.why)} <a href="${escapeHtml(unsubscribe.url)}" style="color:#4a3db8;">Unsubscribe</a></p>`;
}

function textOf(mail: MailContent): string {
  const { before, action, after, unsubscribe } = mail;
  return [
    ...before,
    `${action.label}: ${action.url}`,
    ...after,
    ...(unsubscribe ? [`${unsubscribe.why}\nUnsubscribe: ${unsubscribe.url}`] : []),
  ].join('\n\n');
}

function mailOf(mail: MailContent): NewMail {
  return { to: mail.to, subject: mail.subject, text: textOf(mail), html: htmlOf(mail) };
}

/** Names the wallet being confirmed, so a member can tell a registration made by someone else. */
export function confirmationMail(to: string, url: string, wallet: string): NewMail {
  const shown = shortAddress(getAddress(wallet.toLowerCase()));
  return mailOf({
    to,
    subject: 'Confirm your e-mail address',
    heading: 'Confirm your e-mail address',
    before: [
      'Welcome to the community rewards wallet!',
      `Confirm your e-mail address to start earning CAPs. This confirms the account whose wallet is ${shown}.`,
    ],
    action: { label: 'Confirm your address', url },
    after: [
      'Not you, or not your wallet? Do not open the link. Someone may have used your e-mail address: ' +
        'sign up yourself with this address and your own account replaces the unconfirmed one.',
      'If you did not want an account, you can ignore this mail.',
    ],
  });
}

export function passwordResetMail(to: string, url: string): NewMail {
  return mailOf({
    to,
    subject: 'Reset your password',
    heading: 'Reset your password',
    before: [
      'Someone asked to reset the password of your community rewards wallet account.',
      'Choose a new password with the link below. It works once, for 1 hour.',
    ],
    action: { label: 'Choose a new password', url },
    after: [
      'Your wallet stays locked with your old password: after the reset you will unlock it once with your old password or your 12-word recovery phrase.',
      'If you did not ask for this, you can ignore this mail.',
    ],
  });
}

/** A notification (a credit, a round, a claim made for the member, a reminder, a digest): the
 * member's first name, what happened, the one link into the app, and the way to stop the topic. */
export function notificationMail(args: {
  to: string;
  firstName: string | null;
  subject: string;
  heading: string;
  lines: string[];
  action: { label: string; url: string };
  unsubscribe: { why: string; url: string };
}): NewMail {
  const { to, firstName, subject, heading, lines, action, unsubscribe } = args;
  return mailOf({
    to,
    subject,
    heading,
    before: [firstName ? `Hi ${firstName},` : 'Hi,', ...lines],
    action,
    after: [],
    unsubscribe,
  });
}

/** What a security mail says for each event: its subject (and heading) and what happened. */
const SECURITY_WORDS: Record<
  SecurityEventKind,
  (device: string) => { subject: string; heading: string; what: string }
> = {
  new_device: (device) => ({
    subject: 'New sign-in to your account',
    heading: `New sign-in on ${device}`,
    what: 'Your community rewards wallet account was signed in to on a device or browser it had not been used on before.',
  }),
  password_changed: () => ({
    subject: 'Your password was changed',
    heading: 'Your password was changed',
    what: 'The password of your community rewards wallet account was changed. Devices signed in with the old password were signed out.',
  }),
  two_factor_on: () => ({
    subject: 'Two-factor sign-in was turned on',
    heading: 'Two-factor sign-in was turned on',
    what: 'Signing in to your account now asks for a code from your authenticator app after your password.',
  }),
  two_factor_off: () => ({
    subject: 'Two-factor sign-in was turned off',
    heading: 'Two-factor sign-in was turned off',
    what: 'Signing in to your account now asks for your password only, no code.',
  }),
  export: () => ({
    subject: 'Your data was downloaded',
    heading: 'Your data was downloaded',
    what: "A copy of your account's data (your profile, wallet address, CAPs and claims) was downloaded from the account page.",
  }),
  deletion_requested: () => ({
    subject: 'Your account is being deleted',
    heading: 'Your account is being deleted',
    what: 'Someone asked to delete your community rewards wallet account.',
  }),
  passkey_added: (device) => ({
    subject: 'A passkey was added to your account',
    heading: 'A passkey was added',
    what: `A passkey on ${device} can now sign in to your account.`,
  }),
};

/** "26 Nov 2026, 14:03 UTC": a moment every reader places the same way. */
function utcMoment(at: Date): string {
  const day = at.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = at.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'UTC',
  });
  return `${day}, ${time} UTC`;
}

/** A security event (docs/security.md#security-events), always sent: the member's first name, what
 * happened, when, on which device and from which network, and what to do if it was not them —
 * the one link is the account page's, never a token. */
export function securityMail(args: {
  to: string;
  firstName: string | null;
  kind: SecurityEventKind;
  at: Date;
  device: string;
  network: string | null;
  accountUrl: string;
}): NewMail {
  const { to, firstName, kind, at, device, network, accountUrl } = args;
  const words = SECURITY_WORDS[kind](device);
  return mailOf({
    to,
    subject: words.subject,
    heading: words.heading,
    before: [
      firstName ? `Hi ${firstName},` : 'Hi,',
      words.what,
      `When: ${utcMoment(at)}`,
      `Device: ${device}${network ? `, network ${network}` : ''}`,
      'If this was you, there is nothing to do.',
      'Not you? Change your password now on your account page, and sign out the devices you do not know. If you can no longer sign in, ask for a reset link on the sign-in page.',
    ],
    action: { label: 'Change your password', url: accountUrl },
    after: [
      'We send this mail for every change to your account’s security; it cannot be turned off.',
    ],
  });
}
