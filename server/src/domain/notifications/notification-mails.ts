// Writes a queued notification mail as the outbox worker sends it: only if the member still wants
// its topic, with the words of messages.ts, the member's first name, and the one-click
// unsubscribe (List-Unsubscribe and List-Unsubscribe-Post, RFC 8058) whose link needs no sign-in.
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import type { RenderNotification } from '../../infra/mail/outbox';
import { notificationMail } from '../../infra/mail/templates';
import { firstNameOf } from '../members/names';
import { notificationMessage } from './messages';
import { unsubscribeQuery } from './preferences';

const WHY = {
  credits: 'You get this mail because mails about the CAPs you earn are on for your account.',
  digest: 'You get this digest because you chose a digest of the CAPs you earn.',
  rounds: 'You get this mail because mails about new rounds are on for your account.',
} as const;

export function notificationRenderer(
  db: Kysely<DB>,
  signingKey: string,
  publicUrl: string,
): RenderNotification {
  return async (mail) => {
    const member = await db
      .selectFrom('profiles')
      .select([
        'mail_credits',
        'mail_rounds',
        'mail_credits_version',
        'mail_rounds_version',
        'full_name',
      ])
      .where('id', '=', mail.user_id)
      .executeTakeFirst();
    if (!member) return null;
    const digest = mail.template === 'digest';
    const wanted =
      mail.topic === 'rounds'
        ? member.mail_rounds
        : digest
          ? member.mail_credits === 'daily' || member.mail_credits === 'weekly'
          : member.mail_credits === 'instant';
    if (!wanted) return null;
    const message = await notificationMessage(db, mail);
    if (message === null) return null;
    const version =
      mail.topic === 'credits' ? member.mail_credits_version : member.mail_rounds_version;
    const query = unsubscribeQuery(signingKey, mail.user_id, mail.topic, version);
    const written = notificationMail({
      to: mail.to,
      firstName: firstNameOf(member.full_name),
      subject: message.subject,
      heading: message.heading,
      lines: message.lines,
      action: { label: message.action.label, url: `${publicUrl}${message.action.path}` },
      unsubscribe: {
        why: digest ? WHY.digest : WHY[mail.topic],
        url: `${publicUrl}/unsubscribe?${query}`,
      },
    });
    return {
      to: written.to,
      subject: written.subject,
      text: written.text,
      html: written.html ?? null,
      headers: {
        'List-Unsubscribe': `<${publicUrl}/api/unsubscribe?${query}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  };
}
