// Where the outbox delivers: SMTP (SMTP_URL set) or the dev mailbox (stored in the database,
// readable at /dev/mail, and each mail's links printed to the console).
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/** Notification mails the outbox takes per step and sends side by side; the SMTP transport keeps
 * as many connections open. */
export const NOTIFICATION_SLICE = 4;

export interface OutgoingMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers, such as a notification's one-click unsubscribe (List-Unsubscribe, RFC 8058). */
  headers?: Record<string, string>;
  /** Which queue `id` numbers: the outbox (account and security mails) unless 'notification'. */
  queue?: 'notification';
}

export interface MailTransport {
  kind: 'smtp' | 'dev-mailbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}

export function smtpTransport(url: string, from: string, publicUrl: string): MailTransport {
  const options = {
    url,
    // Connections kept open and reused, not one per mail (a new connection per mail cost about
    // 100 ms each); the outbox sends up to NOTIFICATION_SLICE notification mails side by side.
    pool: true,
    maxConnections: NOTIFICATION_SLICE,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
  const transporter = nodemailer.createTransport(options as SMTPTransport.Options);
  const host = new URL(publicUrl).hostname;
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
        // A stable id per queued mail lets a receiving server drop the duplicate of a retried delivery.
        messageId: `<${mail.queue ?? 'outbox'}-${mail.id}@${host}>`,
      });
    },
    close: () => transporter.close(),
  };
}

export function devMailboxTransport(db: Kysely<DB>, print: (line: string) => void): MailTransport {
  return {
    kind: 'dev-mailbox',
    async send(mail) {
      await db
        .insertInto('dev_mailbox')
        .values({
          ...(mail.queue === 'notification'
            ? { notification_id: mail.id }
            : { outbox_id: mail.id }),
          to_address: mail.to,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const links = linksIn(mail.text);
      print(
        [`[dev mailbox] to ${mail.to}: ${mail.subject}`, ...links.map((l) => `  ${l}`)].join('\n'),
      );
    },
    close: () => undefined,
  };
}
