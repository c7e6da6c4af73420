// Rounds anyone can check before they pay (issue 28; docs/decisions/0027-rounds-in-review.md), on
// the production path: a Hardhat node in its own process, the contracts put there by `ops deploy
// --treasury --guardian` (the treasury's approval signed from the Safe Transaction Builder file
// deploy writes), a server process holding only the publisher's key, and a day's review window.
// The operator proposes a round; the member sees their line and when it pays; the chain's clock
// moves on a day (evm_increaseTime) and the member claims in Chromium. Then a root proposed with
// the stolen publisher key: the server raises the alert, the guardian cancels it, no one can claim
// against it and the treasury keeps everything beyond the approved funding.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { artifact } from '@crw/contracts';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { Contract, JsonRpcProvider, parseEther, Wallet } from 'ethers';
import { startHardhatNode, type HardhatNode } from '../../server/test/helpers/hardhat-node';
import { freePort } from '../../server/test/helpers/ports';
import { deployWithOps } from '../../server/src/testing/ops-deploy';
import {
  repoRoot,
  spawnServer,
  waitForHealthy,
  type ServerProcess,
} from '../../server/test/helpers/server-process';
import { confirmByMail, newEmail, registerOnRegisterScreen } from '../fixtures/member';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';
const DAY = 24 * 3600;
const OPERATOR_KEY = 'rounds-in-review-operator-key-0123456789';
const SUPPLY = parseEther('1000000000');
const ALLOWANCE = parseEther('100000');
const run = promisify(execFile);

let node: HardhatNode;
let provider: JsonRpcProvider;
let server: ServerProcess;
let env: Record<string, string>;
let treasury: Wallet;
let guardian: Wallet;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  node = await startHardhatNode();
  await node.request('evm_setIntervalMining', [1_000]);
  provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
  treasury = new Wallet(node.accounts[2]!, provider);
  guardian = new Wallet(node.accounts[3]!, provider);
  env = {
    ...(await deployWithOps(node, mkdtempSync(path.join(tmpdir(), 'crw-review-')), {
      treasuryKey: treasury.privateKey,
      guardian: guardian.address,
      reviewHours: 24,
      allowance: '100000',
    })),
    CHAIN_POLL_INTERVAL_MS: '300',
    LOG_LEVEL: 'warn',
    OPERATOR_API_KEY: OPERATOR_KEY,
  };
  const port = await freePort();
  server = spawnServer({ ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  await waitForHealthy(server);
});

test.afterAll(async () => {
  await server?.stop();
  provider?.destroy();
  await node?.stop();
});

const ops = async (...args: string[]) =>
  (
    await run(process.execPath, ['--import', 'tsx', 'server/src/cli/ops.ts', ...args], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        SERVER_URL: server.url,
        DATA_DIR: env.DATA_DIR!,
        OPERATOR_API_KEY: OPERATOR_KEY,
      },
    })
  ).stdout;

const contract = (name: 'RemeToken' | 'RewardsDistributor', address: string, signer?: Wallet) =>
  new Contract(address, artifact(name).abi, signer ?? provider);
const balanceOf = async (address: string) =>
  (await contract('RemeToken', env.TOKEN_ADDRESS!).getFunction('balanceOf')(address)) as bigint;

/** Moves the chain's clock on by `seconds`, and mines a block at the new time. */
async function advance(seconds: number) {
  await node.request('evm_increaseTime', [seconds]);
  await node.request('evm_mine');
}

test.describe.configure({ mode: 'serial' });

test('a round waits its review on the dashboard, then the member claims it', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  const email = newEmail('review');
  await registerOnRegisterScreen(page, email, PASSWORD);
  await confirmByMail(page, context.request, email, server.url);
  await expect(page).toHaveURL(/\/dashboard$/);
  const address = (await page.evaluate(
    async () => (await (await fetch('/api/me')).json()).wallet.address,
  )) as string;

  // The treasury holds the supply; the server's key holds none.
  expect(await balanceOf(treasury.address)).toBe(SUPPLY);
  expect(await balanceOf(new Wallet(node.accounts[0]!).address)).toBe(0n);

  const proposed = await ops('distribute', '--publish');
  expect(proposed).toMatch(/Proposed round 1: .*; in review, claimable from /);
  // The round drew its 200 REME from the treasury's approval.
  expect(await balanceOf(treasury.address)).toBe(SUPPLY - parseEther('200'));

  // The member sees their line and when it pays, without a reload.
  const line = page.getByTestId('next-step');
  await expect(line).toContainText('Round 1: 200.00 REME for you, claimable from', {
    timeout: 30_000,
  });
  await expect(page.getByRole('button', { name: /^Claim/ })).toHaveCount(0);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`round-in-review-${width}.png`),
      fullPage: true,
    });
  }
  // The member checks how it was worked out, and says what looks wrong.
  await page.getByText('How this was worked out').click();
  await expect(page.getByTestId('round-review')).toContainText(
    'Round 1 gives you 200.00 REME in all',
  );
  await page.getByRole('button', { name: 'Something wrong? Tell the community' }).click();
  const dialog = page.getByRole('dialog', { name: 'Something wrong in round 1?' });
  await dialog.getByLabel('What looks wrong?').fill('My care CAPs from October are missing.');
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: test.info().outputPath('round-report-375.png') });
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('You told the community about this round. Thank you.')).toBeVisible();

  // Anyone can check it before it pays: the tree is public.
  const tree = await fetch(`${server.url}/api/distributions/1/tree.json`);
  expect(tree.status).toBe(200);
  expect((await ops('verify-round', '1', '--url', server.url)).split('\n')).toContainEqual(
    expect.stringMatching(/^Round 1 is in review: claimable from /),
  );

  // A day later on the chain's clock, the round pays.
  await advance(DAY);
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.00', { timeout: 30_000 });
  const funder = new Wallet(node.accounts[1]!, provider);
  await (await funder.sendTransaction({ to: address, value: parseEther('0.05') })).wait();
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByTestId('reme-balance')).toHaveText('200.00', { timeout: 30_000 });
  expect(await balanceOf(address)).toBe(parseEther('200'));
  await context.close();
});

test('a root proposed with the stolen publisher key: the alert fires, the guardian cancels, no one claims, the treasury keeps the rest', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const distributor = contract('RewardsDistributor', env.DISTRIBUTOR_ADDRESS!);
  const thief = Wallet.createRandom();
  const remaining = ALLOWANCE - parseEther('200');
  const rogue = StandardMerkleTree.of(
    [[thief.address, remaining.toString()]],
    ['address', 'uint256'],
  );
  const stolen = distributor.connect(new Wallet(node.accounts[0]!, provider)) as Contract;
  // The round before paid 200; this one would pay the thief all the approval has left.
  await (await stolen.getFunction('proposeRoot')(2, rogue.root, ALLOWANCE)).wait();
  expect(await balanceOf(treasury.address)).toBe(SUPPLY - ALLOWANCE);

  const metrics = async () =>
    (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })
    ).text();
  await expect
    .poll(metrics, { timeout: 30_000 })
    .toContain('crw_round_alerts_open{kind="foreign_root"} 1');
  // The server will not build on it.
  await expect(ops('distribute', '--publish')).rejects.toThrow(
    /round 2 is in review on chain but was not built by this server/,
  );

  const claimRogue = () =>
    (distributor.connect(new Wallet(node.accounts[1]!, provider)) as Contract)
      .getFunction('claim')
      .staticCall(thief.address, remaining, rogue.getProof(0), 2);
  await expect(claimRogue()).rejects.toThrow();
  const asGuardian = distributor.connect(guardian) as Contract;
  await (await asGuardian.getFunction('cancelRoot')(2)).wait();
  await advance(2 * DAY);
  await expect(claimRogue()).rejects.toThrow();
  expect(await balanceOf(thief.address)).toBe(0n);
  // All back but what round 1 paid out.
  expect(await balanceOf(treasury.address)).toBe(SUPPLY - parseEther('200'));
  await expect
    .poll(metrics, { timeout: 30_000 })
    .toContain('crw_round_alerts_open{kind="foreign_root"} 0');

  // Anyone sees both rounds on /rounds, without an account: the cancelled one named as not built here.
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/rounds');
  await expect(page.getByRole('heading', { name: 'Every distribution round' })).toBeVisible();
  const cards = page.getByRole('list', { name: 'Rounds' }).getByRole('listitem');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText('Cancelled by a guardian · it never paid');
  await expect(cards.nth(0)).toContainText('This service did not build this round');
  await expect(cards.nth(1)).toContainText('Paying now');
  await expect(cards.nth(1).getByRole('link', { name: 'tree.json' })).toBeVisible();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`rounds-${width}.png`), fullPage: true });
  }
  await context.close();
});
