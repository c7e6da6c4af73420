// The long-lived parts the app is built from; main.ts opens them, tests open their own.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { OutboxWorker, type OutboxWorkerOptions } from './mail/outbox';
import { devMailboxTransport, smtpTransport, type MailTransport } from './mail/transports';

export interface AppServices {
  config: Config;
  database: Database;
  transport: MailTransport;
  worker: OutboxWorker;
}

export async function openServices(
  config: Config,
  log: FastifyBaseLogger,
  overrides: { database?: Database; outbox?: OutboxWorkerOptions } = {},
): Promise<AppServices> {
  const database =
    overrides.database ??
    (await openDatabase(
      config.DATABASE_URL
        ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
        : { kind: 'pglite', dataDir: config.dataDir },
    ));
  const applied = await migrate(database);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  const transport = config.SMTP_URL
    ? smtpTransport(config.SMTP_URL, config.MAIL_FROM, config.publicUrl)
    : devMailboxTransport(database.db, (line) => process.stdout.write(`${line}\n`));
  const worker = new OutboxWorker(database.db, transport, log, overrides.outbox);
  return { config, database, transport, worker };
}

/** Stops the worker, then closes the transport and the database (in that order). */
export async function closeServices(services: AppServices): Promise<void> {
  await services.worker.stop();
  services.transport.close();
  await services.database.close();
}
