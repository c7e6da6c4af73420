// The real app, built in process on a fresh test database, for inject() tests and the benchmarks.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app';
import { parseConfig, type Config } from '../config';
import { logOptions } from '../logging';
import type { OutboxWorkerOptions } from '../infra/mail/outbox';
import { openServices, type AppServices } from '../services';
import { openTestDatabase, sameTestDatabase, type TestDatabase } from './database';
import { assertChainUnused, noChain } from './no-chain';

/** A tiny built-SPA stand-in so the static and fallback routes have something to serve. */
export function fixtureWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'crw-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>app</title><div id="root"></div>',
  );
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync('console.log("app")'));
  return dir;
}

export function testConfig(env: Record<string, string> = {}): Config {
  const parsed = parseConfig({
    // Every client here is 127.0.0.1, one network: it must not earn the raised sign-up gate.
    SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: '100000',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    WEB_DIST_DIR: fixtureWebDist(),
    // Credits count at once, and any account's claims are sponsored from the whole budget, unless a
    // test is about that.
    REWARD_HOLD_HOURS: '0',
    SPONSOR_MIN_ACCOUNT_AGE_HOURS: '0',
    SPONSOR_NETWORK_SHARE_PERCENT: '100',
    // Members claim themselves unless a test is about claims made for them (which turns it on).
    CLAIM_FOR_ME_DEFAULT: 'false',
    ...env,
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.config;
}

export interface TestApp {
  app: FastifyInstance;
  services: AppServices;
  testDatabase: TestDatabase;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Builds the app on a fresh test database and DATA_DIR, or on `database` (owned by the caller, who
 * drops it; a restart of the same install passes the same database and `env.DATA_DIR`), or as a
 * second server process of `sameDatabaseAs`'s install (its database and DATA_DIR, its own pool).
 */
export interface TestAppOptions {
  env?: Record<string, string>;
  outbox?: OutboxWorkerOptions;
  extend?: (app: FastifyInstance) => void;
  database?: TestDatabase;
  /** Build a second instance on this app's database, as another server process would run. */
  sameDatabaseAs?: TestApp;
  /** How the fresh test database is opened (default: openTestDatabase, migrating PGlite). */
  openDatabase?: () => Promise<TestDatabase>;
  /**
   * false: no chain is started, deployed or followed (no-chain.ts), for an app whose test never
   * uses it; close() then throws if anything called the node. Default: the configured chain.
   */
  chain?: boolean;
}

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const logs: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const testDb =
    opts.database ??
    (opts.sameDatabaseAs
      ? await sameTestDatabase(opts.sameDatabaseAs.testDatabase)
      : await (opts.openDatabase ?? openTestDatabase)());
  const dataDir =
    opts.sameDatabaseAs?.services.config.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'crw-data-'));
  const config = testConfig({ DATA_DIR: dataDir, ...opts.env });
  const log = pino(logOptions(config.LOG_LEVEL), stream);
  const withoutChain = opts.chain === false;
  if (withoutChain && config.sponsorClaims)
    throw new Error('a test app without a chain cannot sponsor claims: set SPONSOR_CLAIMS=false');
  const services = await openServices(config, log, {
    database: testDb.database,
    outbox: opts.outbox,
    ...(withoutChain ? { chainStandIn: noChain() } : {}),
  });
  const app = await buildApp(services, { logStream: stream });
  opts.extend?.(app);
  await app.ready();
  return {
    app,
    services,
    testDatabase: testDb,
    logs,
    close: async () => {
      await services.notices.stop();
      await services.rewardRelease.stop();
      await services.relayer?.stop();
      await services.follower.stop();
      await services.funding.settled();
      await app.close();
      await services.worker.stop();
      await services.push.stop();
      await services.events.stop();
      await services.sessions.cache.stop();
      services.transport.close();
      if (!opts.database) await testDb.drop();
      if (withoutChain) assertChainUnused(services.chain);
    },
  };
}
