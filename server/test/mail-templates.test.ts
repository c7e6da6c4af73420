// The product's mails as a mail server receives them: through the outbox and SMTP, a
// multipart/alternative message whose HTML part has one button and whose text part has the link.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker, enqueueMail } from '../src/infra/mail/outbox';
import { confirmationMail, passwordResetMail } from '../src/infra/mail/templates';
import { smtpTransport } from '../src/infra/mail/transports';
import { freePort, smtpPeer, type SmtpPeer } from './helpers/smtp-peer';
import { openTestDatabase, type TestDatabase } from './helpers/test-database';
import { until } from './helpers/until';
import { parse, unescapeAttr, visibleText } from './helpers/raw-mail';

const log = pino({ level: 'silent' });

let t: TestDatabase;
let peer: SmtpPeer;
let worker: OutboxWorker;
beforeAll(async () => {
  t = await openTestDatabase();
  peer = smtpPeer(await freePort());
  await peer.start();
  worker = new OutboxWorker(
    t.database.db,
    smtpTransport(`smtp://127.0.0.1:${peer.port}`, 'app@example.test', 'http://localhost'),
    log,
    { pollIntervalMs: 25 },
  );
  worker.start();
});
afterAll(async () => {
  await worker.stop();
  await peer.stop();
  await t.drop();
});

/** Queues the mail, lets the worker send it over SMTP, and answers the message as received. */
async function received(mail: Parameters<typeof enqueueMail>[1]) {
  const before = peer.received.length;
  await enqueueMail(t.database.db, mail);
  worker.wake();
  await until(() => peer.received.length > before, { what: 'the mail over SMTP' });
  return parse(peer.received[before]!.raw);
}

// A link as better-auth makes it (an & between its parameters), with something hostile after it.
const hostile = `http://localhost:3000/api/auth/verify-email?token=abc.def&callbackURL=%2Fx"><script>alert(1)</script>&n='1'`;

describe('the mails as received over SMTP', () => {
  for (const { name, mail, label, words } of [
    {
      name: 'the confirmation mail',
      mail: confirmationMail(
        'member@example.test',
        hostile,
        '0x00000000000000000000000000000000000000aa',
      ),
      label: 'Confirm your address',
      words: [
        'Welcome to the community rewards wallet!',
        'This confirms the account whose wallet is 0x0000…00AA.',
        'Not you, or not your wallet? Do not open the link.',
      ],
    },
    {
      name: 'the password reset mail',
      mail: passwordResetMail('member@example.test', hostile),
      label: 'Choose a new password',
      words: [
        'Someone asked to reset the password of your community rewards wallet account.',
        'It works once, for 1 hour.',
        'If you did not ask for this, you can ignore this mail.',
      ],
    },
  ]) {
    it(`${name}: text and HTML alternatives, one button to the link, every value escaped`, async () => {
      const message = await received(mail);
      expect(message.type).toMatch(/^multipart\/alternative;/);
      expect(message.parts.map((p) => p.type.split(';')[0])).toEqual(['text/plain', 'text/html']);
      const [text, html] = message.parts.map((p) => p.body.replace(/\r\n/g, '\n')) as [
        string,
        string,
      ];

      // The text part: the same words, the link on its own line after its label.
      expect(text.split('\n')).toContain(`${label}: ${hostile}`);
      for (const w of words) expect(text.replace(/\s+/g, ' ')).toContain(w);

      // The HTML part: one link, to the URL, escaped; the URL itself is not shown.
      const links = [...html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)];
      expect(html.match(/<a\s/g)).toHaveLength(1);
      expect(links).toHaveLength(1);
      expect(unescapeAttr(links[0]![1]!)).toBe(hostile);
      expect(links[0]![2]).toBe(label);
      expect(html).not.toContain('<script>');
      expect(html).toContain('&amp;callbackURL=%2Fx&quot;&gt;&lt;script&gt;');
      const seen = visibleText(html).replace(/\s+/g, ' ');
      expect(seen).not.toMatch(/https?:/);
      expect(seen).toContain('Community rewards wallet');
      for (const w of words) expect(seen).toContain(w);
      expect(html).toMatch(/max-width:560px/);
      expect(html).not.toMatch(/<img|<link|url\(/i);
    });
  }
});
