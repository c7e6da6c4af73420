// Starts the one server process: config, database + migrations, mail worker, HTTP. SIGTERM and
// SIGINT first drain for SHUTDOWN_DRAIN_SECONDS (health answers 503, so a proxy takes the process
// out while it still serves), then let in-flight requests finish and exit within 10 s.
import { existsSync } from 'node:fs';
import { buildApp } from './app';
import { drainInFlight } from './http/plugins/in-flight';
import { parseConfig } from './config';
import { logOptions } from './logging';
import { closeServices, openServices } from './services';

const SHUTDOWN_DEADLINE_MS = 9_000;
const LISTEN_BACKLOG = 4096;
/** How long handlers still at work get to finish before the database closes. */
const DRAIN_DEADLINE_MS = 5_000;

// Whatever this process creates (DATA_DIR, the database's files, the keys) is its user's alone.
process.umask(0o077);

if (existsSync('.env')) process.loadEnvFile('.env');

const parsed = parseConfig(process.env);
if (!parsed.ok) {
  process.stderr.write(
    `Invalid configuration; the server did not start:\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  process.exit(1);
}
const { config } = parsed;

const { default: pino } = await import('pino');
const bootLog = pino(logOptions(config.LOG_LEVEL));
const services = await openServices(config, bootLog).catch((error: unknown) => {
  bootLog.fatal({ err: error }, 'could not start: the database or the chain did not open');
  process.exit(1);
});
const app = await buildApp(services);
app.addHook('onClose', async () => {
  await drainInFlight(app, DRAIN_DEADLINE_MS);
  await closeServices(services);
});

let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
  setTimeout(() => {
    app.log.error('shutdown deadline passed; exiting');
    process.exit(1);
  }, drainMs + SHUTDOWN_DEADLINE_MS).unref();
  try {
    if (drainMs > 0) {
      app.log.info({ signal, drainMs }, 'shutting down: draining (health answers 503)');
      services.lifecycle.draining = true;
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  // A queue of connections not yet accepted as long as the kernel allows (net.core.somaxconn, 4096 on
  // current Linux; Node's default is 511): a process restarting behind the proxy gets thousands of
  // event streams at once, and a full queue drops them into TCP's 1 s, 3 s, 7 s retransmissions.
  await app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
  services.worker.start();
  app.log.info(
    `Community rewards wallet on ${config.publicUrl} (database: ${services.database.kind}, mail: ${services.transport.kind})`,
  );
} catch (error) {
  app.log.fatal({ err: error }, 'could not start listening');
  await closeServices(services);
  process.exit(1);
}
