// The app of src/testing/app.ts on this run's test databases (test-database.ts).
import { buildTestApp as build, type TestApp, type TestAppOptions } from '../../src/testing/app';
import { openTestDatabase } from './test-database';

export { fixtureWebDist, testConfig, type TestApp } from '../../src/testing/app';

export function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  return build({ openDatabase: () => openTestDatabase(), ...opts });
}
