// The app of src/testing/app.ts on this run's test databases (test-database.ts). Sponsored claims
// are off unless a file asks for them (SPONSOR_CLAIMS: 'true'): the relayer, its key and the
// faucet's transaction to fund it are started only where a test uses them.
import { buildTestApp as build, type TestApp, type TestAppOptions } from '../../src/testing/app';
import { openTestDatabase } from './test-database';

export { fixtureWebDist, testConfig, type TestApp } from '../../src/testing/app';

export function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  return build({
    openDatabase: () => openTestDatabase(),
    ...opts,
    env: { SPONSOR_CLAIMS: 'false', ...opts.env },
  });
}
