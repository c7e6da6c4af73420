import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/infra/db/database';
import { OutboxWorker, enqueueMail, pendingMailCount } from '../src/infra/mail/outbox';
import { smtpTransport } from '../src/infra/mail/transports';
import { freePort, smtpPeer } from './helpers/smtp-peer';
import { openTestDatabase, type TestDatabase } from './helpers/test-database';
import { until } from './helpers/until';

const log = pino({ level: 'silent' });
const fast = { pollIntervalMs: 25, retryBaseMs: 25, retryMaxMs: 100 };

/** Resolves once each worker has completed `more` delivery passes after this call. */
async function morePasses(workers: OutboxWorker[], more: number): Promise<void> {
  const before = workers.map((w) => w.passes);
  await until(() => workers.every((w, i) => w.passes >= before[i]! + more), {
    what: `${more} more outbox passes`,
  });
}

const pendingCount = (database: Database) => pendingMailCount(database.db);

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.drop());

describe('the mail outbox', () => {
  it('sends nothing for a mail whose transaction rolled back', async () => {
    const port = await freePort();
    const peer = smtpPeer(port);
    await peer.start();
    const worker = new OutboxWorker(
      t.database.db,
      smtpTransport(`smtp://127.0.0.1:${port}`, 'app@example.test', 'http://localhost'),
      log,
      fast,
    );
    try {
      await expect(
        t.database.db.transaction().execute(async (trx) => {
          await enqueueMail(trx, { to: 'rolled@back.test', subject: 'never', text: 'never' });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(
        await t.database.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', 'rolled@back.test')
          .execute(),
      ).toEqual([]);
      expect(await worker.deliverDue()).toBe(0);
      expect(peer.received).toEqual([]);
    } finally {
      await worker.stop();
      await peer.stop();
    }
  });

  it('retries a failed delivery until the SMTP server is back, and delivers exactly once', async () => {
    const port = await freePort();
    const peer = smtpPeer(port);
    const worker = new OutboxWorker(
      t.database.db,
      smtpTransport(`smtp://127.0.0.1:${port}`, 'app@example.test', 'http://localhost'),
      log,
      fast,
    );
    await t.database.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        to: 'member@example.test',
        subject: 'Confirm',
        text: 'http://x/confirm',
      }),
    );
    worker.start();
    try {
      // Phase 1: nobody listens on the port: connection refused.
      await until(
        async () =>
          (
            await t.database.db
              .selectFrom('mail_outbox')
              .select('attempts')
              .executeTakeFirstOrThrow()
          ).attempts >= 2,
      );
      expect(worker.delivery.status).toBe('failing');
      // Phase 2: the server is up but answers 451 to the message.
      peer.refusing = true;
      await peer.start();
      await until(() => peer.refusals >= 1);
      // Phase 3: it accepts.
      peer.refusing = false;
      await until(() => peer.received.length === 1);
      await until(async () => (await pendingCount(t.database)) === 0);
      await morePasses([worker], 3); // several more polls: nothing is sent again
      expect(peer.received).toHaveLength(1);
      expect(peer.received[0]?.to).toEqual(['member@example.test']);
      expect(peer.received[0]?.raw).toMatch(/Message-ID: <outbox-\d+@localhost>/i);
      expect(worker.delivery).toEqual({ status: 'ok', lastError: null });
    } finally {
      await worker.stop();
      await peer.stop();
    }
  });

  it('two workers on one database send each of 30 mails once', async () => {
    const port = await freePort();
    const peer = smtpPeer(port);
    await peer.start();
    const transport = () =>
      smtpTransport(`smtp://127.0.0.1:${port}`, 'app@example.test', 'http://localhost');
    const workers = [
      new OutboxWorker(t.database.db, transport(), log, { ...fast, batchSize: 3 }),
      new OutboxWorker(t.database.db, transport(), log, { ...fast, batchSize: 3 }),
    ];
    try {
      await t.database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 30; i++)
          await enqueueMail(trx, { to: `bulk${i}@example.test`, subject: `n${i}`, text: 'hi' });
      });
      workers.forEach((w) => w.start());
      await until(() => peer.received.length >= 30);
      await until(async () => (await pendingCount(t.database)) === 0);
      // Every pass under way has finished, and another has run: nothing is sent twice.
      await morePasses(workers, 2);
      const recipients = peer.received.map((m) => m.to[0]).filter((to) => to?.startsWith('bulk'));
      expect(recipients).toHaveLength(30);
      expect(new Set(recipients).size).toBe(30);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await peer.stop();
    }
  });
});
