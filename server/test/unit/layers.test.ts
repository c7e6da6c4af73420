// `npm run lint` runs the layer check (scripts/layers.mjs): here it runs on a copy of src with one
// violation of each kind planted, and must fail naming it; on src as it is, it passes.
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');
const copies: string[] = [];

async function check(plant?: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'crw-layers-'));
  copies.push(dir);
  const src = path.join(dir, 'src');
  cpSync(path.join(serverDir, 'src'), src, { recursive: true });
  for (const [file, line] of Object.entries(plant ?? {}))
    appendFileSync(path.join(src, file), `\n${line}\n`);
  try {
    const { stdout } = await run('node', ['scripts/layers.mjs', '--src', src], { cwd: serverDir });
    return { failed: false, output: stdout };
  } catch (error) {
    const e = error as { stdout: string; stderr: string };
    return { failed: true, output: e.stdout + e.stderr };
  }
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

// Each run cruises the whole server (seconds on a loaded machine).
describe('the server layer check', { timeout: 120_000 }, () => {
  it('passes on the server as it is', async () => {
    const { failed, output } = await check();
    expect(output).toMatch(/0 cycles, 0 rule violations/);
    expect(failed).toBe(false);
  });

  // One copy with one violation of each kind planted (a run takes seconds), each named in the output.
  it('fails on each kind of violation, naming it', async () => {
    const { failed, output } = await check({
      // infrastructure importing up into a domain module, and into the HTTP layer
      'infra/db/database.ts': "export { readMember } from '../../domain/members/member';",
      'infra/chain/chain.ts': "export { registerSpa } from '../../http/plugins/spa';",
      // a domain module importing the root, and a domain module after it in the order
      'domain/members/member.ts': [
        "export type { AppServices } from '../../services';",
        "export { publishOnce } from '../distribution/publish-once';",
      ].join('\n'),
      // a cycle between two modules
      'http/guards/bearer.ts': "export { registerSpa } from '../plugins/spa';",
      'http/plugins/spa.ts': "export { hasBearer } from '../guards/bearer';",
      // a route importing another route
      'http/routes/member/account.ts': "export { consoleRoutes } from '../console/routes';",
    });
    expect(failed).toBe(true);
    for (const line of [
      'infra-knows-no-domain: src/infra/db/database.ts → src/domain/members/member.ts',
      'infra-knows-no-domain: src/infra/chain/chain.ts → src/http/plugins/spa.ts',
      'domain-below-http: src/domain/members/member.ts → src/services.ts',
      'domain-order-members: src/domain/members/member.ts → src/domain/distribution/publish-once.ts',
      'routes-do-not-import-routes: src/http/routes/member/account.ts → src/http/routes/console/routes.ts',
    ])
      expect(output).toContain(line);
    expect(output).toMatch(/module cycle: [^\n]*http\/guards, http\/plugins/);
  });
});
