import { mkdtempSync } from 'node:fs';
import type { UserDetails } from '@crw/core';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, waitForHealthy } from './helpers/server-process';
import { freePort } from './helpers/smtp-peer';
import { fixtureWebDist } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

let storage: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // One install: its DATA_DIR (PGlite's files or, with PostgreSQL, the embedded chain's keys) and database.
  storage = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-data-')),
    WEB_DIST_DIR: fixtureWebDist(),
  };
  if (testDbKind === 'postgres') {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    storage.DATABASE_URL = created.url;
  }
});
afterAll(async () => dropDatabase?.());

describe(`the server process (${testDbKind})`, () => {
  it('refuses a bad environment with exit code 1 and a list of every problem', async () => {
    const server = spawnServer({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db',
      SMTP_URL: 'ftp://mail',
    });
    expect(await server.exited).toBe(1);
    const out = server.output();
    expect(out).toContain('Invalid configuration');
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL']) expect(out).toContain(`- ${name}:`);
  });

  it('starts healthy, and a second start reuses the data', async () => {
    const port = String(await freePort());
    const first = spawnServer({ ...storage, PORT: port });
    const firstMs = await waitForHealthy(first);
    const queued = await fetch(`${first.url}/dev/mail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        to: 'keep@example.test',
        subject: 'Kept across restarts',
        text: 'see http://localhost/kept',
      }),
    });
    expect(queued.status).toBe(202);
    const mailTo = async (url: string) =>
      (
        (await (await fetch(`${url}/dev/mail.json?to=keep@example.test`)).json()) as {
          messages: unknown[];
        }
      ).messages;
    await until(async () => (await mailTo(first.url)).length > 0, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'the mail delivered to the dev mailbox',
    });
    expect(first.output()).toContain(
      '[dev mailbox] to keep@example.test: Kept across restarts\n  http://localhost/kept',
    );
    expect(first.output()).toContain('migrations applied');
    expect(await first.stop()).toBe(0);

    const second = spawnServer({ ...storage, PORT: port });
    const secondMs = await waitForHealthy(second);
    const mails = await mailTo(second.url);
    expect(mails).toHaveLength(1);
    expect(second.output()).not.toContain('migrations applied');
    expect(await second.stop()).toBe(0);
    console.info(
      `[process] healthy after ${firstMs} ms (first start), ${secondMs} ms (second start)`,
    );
  });

  it('on SIGTERM finishes an in-flight request, then exits 0', async () => {
    const port = await freePort();
    const server = spawnServer({ ...storage, PORT: String(port) });
    await waitForHealthy(server);
    const body = JSON.stringify({
      to: 'slow@example.test',
      subject: 'Slow upload',
      text: 'x'.repeat(2000),
    });
    /** A line the server logged (pino's JSON) with this message and, if given, this request URL. */
    const logged = (msg: string, url?: string) => () => {
      if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
      return server
        .output()
        .split('\n')
        .some(
          (line) =>
            line.includes(`"msg":${JSON.stringify(msg)}`) &&
            (url === undefined || line.includes(`"url":${JSON.stringify(url)}`)),
        );
    };
    let req!: http.ClientRequest;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/dev/mail',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
    });
    // Send half the body; once the server has the request in hand (Fastify logs it on its
    // headers), SIGTERM; once the server says it is shutting down, finish the body.
    req.write(body.slice(0, 1000));
    await until(logged('incoming request', '/dev/mail'), { what: 'the request logged' });
    server.child.kill('SIGTERM');
    await until(logged('shutting down: finishing in-flight requests'), {
      what: 'the shutdown logged',
    });
    req.end(body.slice(1000));
    const result = await response;
    expect(result.status).toBe(202);
    expect(JSON.parse(result.body)).toMatchObject({ status: 'queued' });
    const exitStarted = Date.now();
    expect(await server.exited).toBe(0);
    const exitMs = Date.now() - exitStarted;
    console.info(`[process] exited ${exitMs} ms after the in-flight request finished`);
    expect(exitMs).toBeLessThan(10_000);
  });
});

describe(`the operator CLI against a running server (${testDbKind})`, () => {
  it('credits a care action through the operator API, once per key, with the key the server keeps in DATA_DIR', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { makeMemberKeys, registerBody } = await import('./helpers/members');
    const { repoRoot } = await import('./helpers/server-process');
    const port = String(await freePort());
    const dataDir = storage.DATA_DIR!;
    const server = spawnServer({ ...storage, PORT: port });
    try {
      await waitForHealthy(server);
      const keys = await makeMemberKeys();
      const registered = await fetch(`${server.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await registerBody(server.url, keys)),
      });
      expect(registered.status).toBe(201);
      const ops = (...args: string[]) =>
        promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'server/src/cli/ops.ts', ...args],
          {
            cwd: repoRoot,
            env: { PATH: process.env.PATH ?? '', SERVER_URL: server.url, DATA_DIR: dataDir },
          },
        );
      const args = [
        'care-action',
        '--email',
        keys.email,
        '--caps',
        '40',
        '--description',
        'Helped at the food bank',
        '--key',
        'foodbank-1',
      ];
      expect((await ops(...args)).stdout).toContain(`Credited 40 CAPs to ${keys.email}`);
      expect((await ops(...args)).stdout).toContain(
        'Already credited earlier under key foodbank-1: nothing changed.',
      );
      await expect(
        ops('care-action', '--email', keys.email, '--caps=-3', '--description', 'x'),
      ).rejects.toThrow(/positive whole number/);
      // Without the key, ops says so, not that the (running) server could not be reached.
      await expect(
        promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'server/src/cli/ops.ts', ...args],
          {
            cwd: repoRoot,
            env: {
              PATH: process.env.PATH ?? '',
              SERVER_URL: server.url,
              DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-no-key-')),
            },
          },
        ),
      ).rejects.toThrow(/No OPERATOR_API_KEY and no key file/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('distributes, funds and claims through the CLI and /rpc, and a restart keeps every balance, root and proof', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { makeMemberKeys, registerBody, cookieOf } = await import('./helpers/members');
    const { repoRoot } = await import('./helpers/server-process');
    const { read, sendClaim, distributorInterface, tokenInterface } =
      await import('./helpers/chain-client');
    const port = String(await freePort());
    const dataDir = storage.DATA_DIR!;
    const env = { ...storage, PORT: port };
    const ops = async (...args: string[]) =>
      (
        await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'server/src/cli/ops.ts', ...args],
          {
            cwd: repoRoot,
            env: {
              PATH: process.env.PATH ?? '',
              SERVER_URL: `http://localhost:${port}`,
              DATA_DIR: dataDir,
            },
          },
        )
      ).stdout;

    const keys = await makeMemberKeys();
    let server = spawnServer(env);
    await waitForHealthy(server);
    const { chain } = (await (await fetch(`${server.url}/api/health`)).json()) as {
      chain: { distributorAddress: string; tokenAddress: string };
    };
    expect(
      (
        await fetch(`${server.url}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(await registerBody(server.url, keys)),
        })
      ).status,
    ).toBe(201);
    let link: string | undefined;
    await until(
      async () => {
        const { messages } = (await (
          await fetch(`${server.url}/dev/mail.json?to=${encodeURIComponent(keys.email)}`)
        ).json()) as { messages: { links: string[] }[] };
        link = messages[0]?.links.find((l) => l.includes('verify-email'));
        return link !== undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'the confirmation mail' },
    );
    const confirmUrl = new URL(link!);
    expect(
      (
        await fetch(`${server.url}${confirmUrl.pathname}${confirmUrl.search}`, {
          redirect: 'manual',
        })
      ).status,
    ).toBe(302);

    const dryRun = await ops('distribute');
    expect(dryRun).toContain('Round 1 (dry run): 1 members, 200.0000 REME in total, 1 changed');
    expect(dryRun).toContain(`${keys.address}            0.0000          200.0000`);
    expect(await ops('distribute', '--publish')).toMatch(
      /\nPublished round 1: root 0x[0-9a-f]{64}, 1 members, 200.0000 REME, transaction 0x[0-9a-f]{64}/,
    );
    expect(await ops('distribute', '--publish')).toContain(
      'Nothing changed since round 1: nothing to publish.',
    );
    expect(await ops('fund', keys.address, '0.05')).toContain(`Sent 0.05 ETH to ${keys.address}`);

    const signIn = async () => {
      const res = await fetch(`${server.url}/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email: keys.email, password: keys.authSecret }),
      });
      return cookieOf(res.headers.getSetCookie());
    };
    const claimData = async () =>
      (await (
        await fetch(`${server.url}/api/claim`, { headers: { cookie: await signIn() } })
      ).json()) as { proof: string[]; distributedTokens: string; distributionIndex: number };
    const claim = await claimData();
    const sent = await sendClaim(server.url, keys.privateKey, chain.distributorAddress, [
      keys.address,
      BigInt(claim.distributedTokens),
      claim.proof,
      claim.distributionIndex,
    ]);
    expect(sent.receipt?.status).toBe('0x1');

    const snapshot = async () => ({
      reme: await read(server.url, chain.tokenAddress, tokenInterface, 'balanceOf', [keys.address]),
      claimed: await read(server.url, chain.tokenAddress, tokenInterface, 'claimedOf', [
        keys.address,
      ]),
      root: await read(
        server.url,
        chain.distributorAddress,
        distributorInterface,
        'merkleRoot',
        [],
      ),
      eth: (
        (await (
          await fetch(`${server.url}/rpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'eth_getBalance',
              params: [keys.address, 'latest'],
            }),
          })
        ).json()) as { result: string }
      ).result,
      claim: await claimData(),
      tree: await (await fetch(`${server.url}/api/distributions/1/tree.json`)).text(),
      // The chain follower's figures, kept in the database and resumed by the next start.
      tokens: (({ claimed, remeHeld, forClaiming, asOf }) => ({
        claimed,
        remeHeld,
        forClaiming,
        block: asOf.block,
      }))(
        (
          (await (
            await fetch(`${server.url}/api/me`, { headers: { cookie: await signIn() } })
          ).json()) as { tokens: UserDetails['tokens'] }
        ).tokens,
      ),
    });
    const before = await snapshot();
    expect(before.reme).toBe(200n * 10n ** 18n);
    expect(before.tokens).toEqual({
      claimed: String(200n * 10n ** 18n),
      remeHeld: String(200n * 10n ** 18n),
      forClaiming: '0',
      block: Number(sent.receipt!.blockNumber),
    });
    expect(BigInt(before.eth)).toBeGreaterThan(0n);
    expect(await server.stop()).toBe(0);

    server = spawnServer(env);
    try {
      await waitForHealthy(server);
      expect(await snapshot()).toEqual(before);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
