// The production path end to end: a separate chain node (Hardhat's, standing in for
// Sepolia), the contracts put there by `ops deploy`, PostgreSQL and two server processes. A member
// registers on one process, the operator distributes, the member claims in Chromium through the
// other, and the dashboard shows the claimed REME from the database once the follower has seen the
// block. Then the node stops: the figures stay, marked as possibly out of date, and the claim
// screen says the network cannot be reached. (Without TEST_DATABASE_URL the two "processes" are
// one server on PGlite: PGlite belongs to one process.) On PostgreSQL the two processes also stand
// behind HAProxy running deploy/haproxy.cfg, as deploy/ runs them: a member signs up and keeps an
// open dashboard through the proxy while each process in turn restarts, and a credit made after
// both restarts reaches the page without a reload.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { JsonRpcProvider, parseEther, Wallet } from 'ethers';
import { startHardhatNode, type HardhatNode } from '../../server/test/helpers/hardhat-node';
import { freePort } from '../../server/test/helpers/ports';
import { deployWithOps } from '../../server/src/testing/ops-deploy';
import { startProxy, type Proxy } from '../../server/src/testing/proxy';
import {
  repoRoot,
  spawnServer,
  waitForHealthy,
  type ServerProcess,
} from '../../server/test/helpers/server-process';
import {
  confirmByMail,
  newEmail,
  registerOnRegisterScreen,
  signInOnAuthScreen,
} from '../fixtures/member';
import { request } from '@playwright/test';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';
const run = promisify(execFile);

let node: HardhatNode;
let dropDatabase: (() => Promise<void>) | undefined;
const servers: ServerProcess[] = [];
let env: Record<string, string>;
let proxy: Proxy | undefined;
const OPERATOR_KEY = 'production-journey-operator-key-0123456789';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  node = await startHardhatNode();
  // Blocks keep coming, as on a real chain, so confirmations complete.
  await node.request('evm_setIntervalMining', [1_000]);
  env = {
    // `npm run ops -- deploy` puts the contracts on the node, as an operator does.
    ...(await deployWithOps(node, mkdtempSync(path.join(tmpdir(), 'crw-prod-')))),
    CHAIN_POLL_INTERVAL_MS: '500',
    LOG_LEVEL: 'warn',
  };
  expect(env.TOKEN_ADDRESS).toMatch(/^0x[0-9a-fA-F]{40}$/);
  let processes = 1;
  if (process.env.TEST_DATABASE_URL) {
    const { createPostgresDatabase } = await import('../../server/test/helpers/test-database');
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    env.DATABASE_URL = created.url;
    processes = 2;
  }
  // With two processes, HAProxy in front: the address in the mails' links (PUBLIC_URL); each
  // process still answers its own address too.
  const proxyPort = processes > 1 ? await freePort() : undefined;
  if (proxyPort)
    Object.assign(env, {
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_DRAIN_SECONDS: '5',
      OPERATOR_API_KEY: OPERATOR_KEY,
    });
  for (let i = 0; i < processes; i++) {
    const port = await freePort();
    const server = spawnServer({
      ...env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${proxyPort ?? port}`,
    });
    servers.push(server);
    await waitForHealthy(server);
  }
  if (proxyPort)
    proxy = await startProxy(
      servers.map((s) => new URL(s.url).host),
      proxyPort,
    );
});

test.afterAll(async () => {
  await proxy?.stop();
  for (const server of servers) await server.stop();
  await node?.stop();
  await dropDatabase?.();
});

const ops = async (server: ServerProcess, ...args: string[]) =>
  (
    await run(process.execPath, ['--import', 'tsx', 'server/src/cli/ops.ts', ...args], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        SERVER_URL: server.url,
        DATA_DIR: env.DATA_DIR!,
        ...(env.OPERATOR_API_KEY ? { OPERATOR_API_KEY: env.OPERATOR_API_KEY } : {}),
      },
    })
  ).stdout;

test('through HAProxy: an open dashboard stays live while each process restarts, and hears the next credit', async ({
  browser,
}) => {
  test.skip(
    !proxy,
    'PostgreSQL only: PGlite belongs to one process, and one process needs no proxy',
  );
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: proxy!.url });
  const page = await context.newPage();
  const email = newEmail('proxied');
  await registerOnRegisterScreen(page, email, PASSWORD);
  // The dev mailbox answers only requests made on this machine, never forwarded ones: read directly.
  const mailbox = await request.newContext({ baseURL: servers[0]!.url });
  await confirmByMail(page, mailbox, email);
  await mailbox.dispose();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('caps-balance')).toHaveText('200');

  // Each process in turn: SIGTERM (it drains, the proxy takes it out, its streams move), then back.
  for (const [i, server] of servers.entries()) {
    expect(await server.stop('SIGTERM')).toBe(0);
    const port = new URL(server.url).port;
    servers[i] = spawnServer({ ...env, PORT: port, PUBLIC_URL: proxy!.url });
    await waitForHealthy(servers[i]!);
    await expect(page.getByRole('heading', { name: /^Hello/ })).toBeVisible();
  }

  // A care action, credited through the proxy: the open page shows it without a reload.
  const credited = await fetch(`${proxy!.url}/api/operator/care-actions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      caps: 50,
      description: 'Drove a neighbour to the clinic',
      idempotencyKey: `proxied-${email}`,
    }),
  });
  expect(credited.status).toBe(201);
  await expect(page.getByTestId('caps-balance')).toHaveText('250', { timeout: 15_000 });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`dashboard-through-proxy-${width}.png`),
      fullPage: true,
    });
  }
  await context.close();
});

test('production path: register on one process, distribute, claim through the other, figures from the database', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const first = servers[0]!;
  const other = servers.at(-1)!;
  const health = (await (await fetch(`${first.url}/api/health`)).json()) as {
    database: { kind: string };
    chain: { kind: string };
  };
  expect(health.chain.kind).toBe('remote');
  expect(health.database.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

  // Registered and confirmed on the first process.
  const context = await browser.newContext({ baseURL: first.url });
  const page = await context.newPage();
  const email = newEmail('production');
  await registerOnRegisterScreen(page, email, PASSWORD);
  // The mail's link names the proxy (PUBLIC_URL) when there is one: opened on this process.
  await confirmByMail(page, context.request, email, first.url);
  await expect(page).toHaveURL(/\/dashboard$/);
  const address = (await page.evaluate(
    async () => (await (await fetch('/api/me')).json()).wallet.address,
  )) as string;

  // The operator publishes a round; the member's wallet gets ETH for the fee (no faucet on a real chain).
  expect(await ops(first, 'distribute', '--publish')).toMatch(/Published round 1/);
  const funder = new Wallet(node.accounts[1]!, new JsonRpcProvider(node.url));
  await (await funder.sendTransaction({ to: address, value: parseEther('0.05') })).wait();

  // The claim, in the same browser, through the other process (another address, so the member
  // signs in there: the browser keeps its flags per address). Cookies are kept per host, not per
  // port, so the first process's session would open the other's dashboard without a sign-in:
  // it is cleared, and the member signs in through the other process itself.
  await context.clearCookies();
  await signInOnAuthScreen(page, email, PASSWORD, other.url);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.00', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(page.locator('dt:text-is("Your ETH balance") + dd')).toHaveText(
    '0.05 ETH (≈ £100.00)',
  );
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByTestId('reme-balance')).toHaveText('200.00', { timeout: 30_000 });
  await expect(page.getByTestId('tokens-to-claim')).toHaveCount(0);

  // Both processes answer the same figures from the one database.
  for (const server of servers) {
    const me = (await (await context.request.get(`${server.url}/api/me`)).json()) as {
      tokens: { remeHeld: string; asOf: { block: number } };
    };
    expect(me.tokens.remeHeld).toBe((200n * 10n ** 18n).toString());
    expect(me.tokens.asOf.block).toBeGreaterThan(0);
  }

  // The node goes away: the dashboard keeps the figures and says they may be out of date; the claim
  // screen says the network cannot be reached.
  await node.stop();
  await page.reload();
  await expect(page.getByText(/Your REME figures may be out of date/)).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('reme-balance')).toHaveText('200.00');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`dashboard-out-of-date-${width}.png`),
      fullPage: true,
    });
  }
  const health2 = (await (await fetch(`${other.url}/api/health`)).json()) as {
    chain: { status: string };
  };
  expect(health2.chain.status).toBe('down');
  await context.close();
});
