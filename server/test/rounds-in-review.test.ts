// Rounds in review on the production path (issue 28; docs/decisions/0027-rounds-in-review.md): a
// Hardhat node in its own process, contracts deployed with a treasury and a guardian of their own
// and a 24-hour review window, the server holding only the publisher's key. A proposed round shows
// on the member's dashboard with when it pays, is refused on chain until then, and pays once the
// chain's clock has passed it. A root proposed with the stolen publisher key is refused by the
// server, cancelled by the guardian, never pays, and the treasury keeps everything beyond the
// funding it approved.
import type { UserDetails } from '@crw/core';
import { deployContracts } from '@crw/contracts';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import type { Contract } from 'ethers';
import { JsonRpcProvider, Wallet, parseEther, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendClaim } from './helpers/chain-client';
import { startChainNode, type ChainNodeProcess } from './helpers/chain-node-process';
import { joinAndConfirm, makeMemberKeys, ORIGIN, signedInCookie } from './helpers/members';
import { batchCalldata, type safeBatch } from '../src/infra/chain/safe-batch';
import { consoleOperatorCookie } from '../src/testing/console-operator';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const DAY = 24 * 3600;
const SUPPLY = parseEther('1000000');
const ALLOWANCE = parseEther('5000');
const reme = (n: number) => parseEther(String(n)).toString();

let node: ChainNodeProcess;
let provider: JsonRpcProvider;
const opened: TestApp[] = [];

beforeAll(async () => {
  node = await startChainNode();
  provider = new JsonRpcProvider(node.url, 31337, {
    staticNetwork: true,
    pollingInterval: 50,
    cacheTimeout: -1,
  });
}, 120_000);
afterAll(async () => {
  for (const t of opened.reverse()) await t.close();
  provider?.destroy();
  await node?.stop();
});

/** A funded random key on the node. */
async function funded(): Promise<Wallet> {
  const wallet = new Wallet(Wallet.createRandom().privateKey, provider);
  await node.request('hardhat_setBalance', [wallet.address, toQuantity(parseEther('100'))]);
  return wallet;
}

/** Contracts with three keys and a day's review; the treasury approves ALLOWANCE. */
async function deployWithSeparateKeys() {
  const [publisher, treasury, guardian] = [await funded(), await funded(), await funded()];
  const startBlock = Number(await node.request('eth_blockNumber')) + 1;
  const { token, distributor } = await deployContracts(publisher, SUPPLY, {
    treasury: treasury.address,
    guardians: [guardian.address],
    reviewSeconds: DAY,
  });
  const addresses = {
    token: await token.getAddress(),
    distributor: await distributor.getAddress(),
  };
  const asTreasury = token.connect(treasury) as Contract;
  await (await asTreasury.getFunction('approve')(addresses.distributor, ALLOWANCE)).wait();
  const t = await buildTestApp({
    env: {
      CHAIN_RPC_URL: node.url,
      TOKEN_ADDRESS: addresses.token,
      DISTRIBUTOR_ADDRESS: addresses.distributor,
      OPERATOR_PRIVATE_KEY: publisher.privateKey,
      CHAIN_START_BLOCK: String(startBlock),
      CHAIN_POLL_INTERVAL_MS: '200',
      CHAIN_CONFIRMATIONS: '0',
      AUTH_RATE_LIMIT_PER_IP: '1000',
    },
  });
  opened.push(t);
  const balanceOf = async (address: string) =>
    (await token.getFunction('balanceOf')(address)) as bigint;
  return { t, publisher, treasury, guardian, token, distributor, addresses, balanceOf };
}

async function me(t: TestApp, cookie: string): Promise<UserDetails> {
  const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UserDetails;
}

const publish = (t: TestApp) =>
  t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });

/** The member's leaf and proof in round `index`, from the round's public tree.json. */
async function proofFromTree(t: TestApp, index: number, address: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/distributions/${index}/tree.json` });
  expect(res.statusCode, res.body).toBe(200);
  const tree = StandardMerkleTree.load<[string, string]>(res.json());
  for (const [i, [account, amount]] of tree.entries())
    if (account.toLowerCase() === address.toLowerCase())
      return { amount: BigInt(amount), proof: tree.getProof(i) };
  throw new Error(`${address} is not in round ${index}`);
}

async function roundRow(t: TestApp, index: number) {
  return t.services.database.db
    .selectFrom('distribution_rounds')
    .select(['status', 'active_at'])
    .where('round_index', '=', index)
    .executeTakeFirstOrThrow();
}

describe(`rounds in review on a Hardhat node process (${testDbKind})`, () => {
  it('a proposed round shows with when it pays, is refused on chain until then, and pays after the window', async () => {
    const { t, addresses, treasury, balanceOf } = await deployWithSeparateKeys();
    const member = await makeMemberKeys();
    await joinAndConfirm(t.app, t.services.database.db, member);
    const cookie = await signedInCookie(t.app, member);
    await node.request('hardhat_setBalance', [member.address, toQuantity(parseEther('1'))]);

    const proposed = await publish(t);
    expect(proposed.json()).toMatchObject({ index: 1, outcome: 'published' });
    const { activeAt } = proposed.json() as { activeAt: string };
    const block = await provider.getBlock('latest');
    expect(new Date(activeAt).getTime()).toBe((block!.timestamp + DAY) * 1000);
    expect((await roundRow(t, 1)).status).toBe('in_review');
    // The funding came out of the treasury's approval, no more.
    expect(await balanceOf(treasury.address)).toBe(SUPPLY - parseEther('200'));
    expect(await balanceOf(addresses.distributor)).toBe(parseEther('200'));

    await t.services.follower.syncNow();
    expect((await me(t, cookie)).tokens).toMatchObject({
      forClaiming: '0',
      incoming: reme(200),
      inReview: { round: 1, adds: reme(200), claimableFrom: activeAt },
    });
    // Anyone can check the round while it waits: its tree.json is public.
    const leaf = await proofFromTree(t, 1, member.address);
    expect(leaf.amount).toBe(parseEther('200'));
    const early = await sendClaim(t.app, member.privateKey, addresses.distributor, [
      member.address,
      leaf.amount,
      leaf.proof,
      1,
    ]);
    expect(JSON.stringify(early.error)).toMatch(/revert/i);
    // "Something wrong? Tell the community": once per member and round, only while in review.
    const report = (headers: Record<string, string>, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/rounds/1/report',
        headers: { origin: ORIGIN, ...headers },
        payload: payload as object,
      });
    expect((await report({}, { message: 'Missing a friend' })).statusCode).toBe(401);
    for (const bad of [{ message: '   ' }, { message: 'x'.repeat(1001) }, {}, { message: 7 }])
      expect((await report({ cookie }, bad)).statusCode).toBe(400);
    const stranger = await makeMemberKeys();
    await joinAndConfirm(t.app, t.services.database.db, stranger);
    const strangerCookie = await signedInCookie(t.app, stranger);
    expect((await report({ cookie: strangerCookie }, { message: 'Not mine' })).statusCode).toBe(
      404,
    );
    // An operator (joined after the round was made) hears of it, by mail and in the console.
    const operator = await makeMemberKeys();
    const operatorCookie = await consoleOperatorCookie(
      t.app,
      t.services.database.db,
      operator,
      t.services.operatorKey,
    );
    const told = await report({ cookie }, { message: '  A friend who joined is missing.  ' });
    expect(told.statusCode, told.body).toBe(201);
    const mails = await t.services.database.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', operator.email)
      .where('subject', '=', 'A member says round 1 looks wrong')
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('A friend who joined is missing.');
    const guardian = await t.app.inject({
      method: 'GET',
      url: '/api/console/rounds/alerts',
      headers: { cookie: operatorCookie },
    });
    expect(guardian.json()).toMatchObject({
      reports: [{ round: 1, email: member.email, message: 'A friend who joined is missing.' }],
    });
    expect((await me(t, cookie)).tokens.inReview?.reported).toBe(true);
    const again = await report({ cookie }, { message: 'Still missing.' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_reported' });
    expect(
      await t.services.database.db
        .selectFrom('round_reports')
        .select(['round_index', 'message'])
        .execute(),
    ).toEqual([{ round_index: 1, message: 'A friend who joined is missing.' }]);

    // One round at a time: publishing again proposes nothing.
    expect((await publish(t)).json()).toMatchObject({ index: 1, outcome: 'in_review', activeAt });

    await node.request('evm_increaseTime', [DAY]);
    await node.request('evm_mine');
    await t.services.follower.syncNow();
    expect((await roundRow(t, 1)).status).toBe('published');
    const after = (await me(t, cookie)).tokens;
    expect(after).toMatchObject({ forClaiming: reme(200), incoming: '0' });
    expect(after.inReview).toBeUndefined();
    const claim = (
      await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })
    ).json();
    const sent = await sendClaim(t.app, member.privateKey, addresses.distributor, [
      member.address,
      BigInt(claim.distributedTokens),
      claim.proof,
      claim.distributionIndex,
    ]);
    expect(sent.receipt?.status, JSON.stringify(sent)).toBe('0x1');
    expect(await balanceOf(member.address)).toBe(parseEther('200'));
    // An active round is not in review any more.
    const late = await report({ cookie }, { message: 'Too late?' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'round_not_in_review' });
  });

  it('a root proposed with the stolen publisher key: the server refuses to build on it, the guardian cancels it, it never pays, and the treasury keeps all but the approved funding', async () => {
    const { t, publisher, treasury, guardian, distributor, addresses, balanceOf } =
      await deployWithSeparateKeys();
    const member = await makeMemberKeys();
    await joinAndConfirm(t.app, t.services.database.db, member);
    const operator = await makeMemberKeys();
    const operatorCookie = await consoleOperatorCookie(
      t.app,
      t.services.database.db,
      operator,
      t.services.operatorKey,
    );
    const first = await publish(t);
    // The member and the operator (a member too), 200 each.
    expect(first.json()).toMatchObject({ index: 1, outcome: 'published', total: reme(400) });
    await node.request('evm_increaseTime', [DAY]);
    await node.request('evm_mine');
    await t.services.follower.syncNow();

    // The thief builds a root that pays them, as large as the approval allows.
    const thief = Wallet.createRandom().address;
    const rogue = StandardMerkleTree.of(
      [
        [thief, (ALLOWANCE - parseEther('200')).toString()],
        [member.address, parseEther('200').toString()],
      ],
      ['address', 'uint256'],
    );
    const stolen = distributor.connect(publisher) as Contract;
    await (await stolen.getFunction('proposeRoot')(2, rogue.root, ALLOWANCE)).wait();
    // Never more than the treasury approved.
    expect(await balanceOf(treasury.address)).toBe(SUPPLY - ALLOWANCE);
    await expect(
      stolen.getFunction('proposeRoot')(3, rogue.root, ALLOWANCE + 1n),
    ).rejects.toThrow();

    // The follower raises the alert as it reads the proposal: log, /metrics, console, mail.
    await t.services.follower.syncNow();
    await t.services.roundWatch.settled();
    const alertLine = (t.logs as Array<{ msg?: string; alert?: string }>).find(
      (l) => l.alert === 'foreign_root',
    );
    expect(alertLine?.msg).toContain(
      `distributor alert: Round 2 was proposed on chain with a root this server did not build (${rogue.root.toLowerCase()}`,
    );
    const metrics = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${t.services.operatorKey}` },
        })
      ).body;
    expect(await metrics()).toContain('crw_round_alerts_open{kind="foreign_root"} 1');
    const alerts = await t.app.inject({
      method: 'GET',
      url: '/api/console/rounds/alerts',
      headers: { cookie: operatorCookie },
    });
    expect(alerts.statusCode, alerts.body).toBe(200);
    expect(alerts.json()).toMatchObject({
      distributor: addresses.distributor,
      alerts: [{ kind: 'foreign_root', round: 2, resolvedAt: null }],
    });
    const mail = await t.services.database.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', operator.email)
      .where('subject', 'like', '%distributor alert%')
      .execute();
    expect(mail).toEqual([
      expect.objectContaining({
        subject: 'REME distributor alert: round 2 was not built by this server',
      }),
    ]);
    // The guardian's file: cancelRoot(2), for Safe's Transaction Builder.
    const file = await t.app.inject({
      method: 'GET',
      url: '/api/console/rounds/2/cancel.json',
      headers: { cookie: operatorCookie },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('cancel-round-2.json');
    expect(file.json()).toMatchObject({
      version: '1.0',
      chainId: '31337',
      transactions: [
        {
          to: addresses.distributor,
          contractMethod: { name: 'cancelRoot' },
          contractInputsValues: { index: '2' },
        },
      ],
    });
    // A member's session, or none, gets neither.
    for (const headers of [{}, { cookie: await signedInCookie(t.app, member) }])
      for (const url of ['/api/console/rounds/alerts', '/api/console/rounds/2/cancel.json'])
        expect([401, 403]).toContain(
          (await t.app.inject({ method: 'GET', url, headers })).statusCode,
        );
    const refused = await publish(t);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.body).toContain(
      'round 2 is in review on chain but was not built by this server',
    );

    const proofOf = (i: number) => rogue.getProof(i);
    const early = await sendClaim(t.app, Wallet.createRandom().privateKey, addresses.distributor, [
      thief,
      ALLOWANCE - parseEther('200'),
      proofOf(0),
      2,
    ]);
    expect(early.error).toBeDefined();

    // The guardian signs the file's call, as their Safe would.
    const batch = file.json() as ReturnType<typeof safeBatch>;
    await (
      await guardian.sendTransaction({
        to: batch.transactions[0]!.to,
        data: batchCalldata('RewardsDistributor', batch.transactions[0]!),
      })
    ).wait();
    expect(await balanceOf(treasury.address)).toBe(SUPPLY - parseEther('400'));
    await node.request('evm_increaseTime', [2 * DAY]);
    await node.request('evm_mine');
    await t.services.follower.syncNow();
    const thiefKey = await funded();
    const late = await sendClaim(t.app, thiefKey.privateKey, addresses.distributor, [
      thief,
      ALLOWANCE - parseEther('200'),
      proofOf(0),
      2,
    ]);
    expect(late.error).toBeDefined();
    expect(await balanceOf(thief)).toBe(0n);
    const state = await t.services.database.db
      .selectFrom('chain_follower_state')
      .select(['round_index', 'latest_index', 'latest_cancelled'])
      .executeTakeFirstOrThrow();
    expect(state).toEqual({ round_index: 1, latest_index: 2, latest_cancelled: true });
    // The alert is resolved by the cancel.
    expect(await metrics()).toContain('crw_round_alerts_open{kind="foreign_root"} 0');

    // The server's next round takes the next number; round 2's stays the thief's, cancelled.
    const other = await makeMemberKeys();
    await joinAndConfirm(t.app, t.services.database.db, other);
    // Round 2 spent the approval (the cancel gave the REME back, not the allowance): the server
    // says so instead of sending a transaction that would fail.
    const short = await publish(t);
    expect(short.statusCode, short.body).toBe(409);
    expect(short.json().message).toMatch(
      /round 3 draws 200(\.0+)? REME from the treasury 0x\w+, which has approved the distributor for 0(\.0+)?: the treasury must approve more/,
    );
    const token = t.services.chain.token.connect(treasury) as Contract;
    await (await token.getFunction('approve')(addresses.distributor, ALLOWANCE)).wait();
    // The round prepared before the refusal is the one sent now.
    expect((await publish(t)).json()).toMatchObject({ index: 3, outcome: 'resumed' });
    await t.services.follower.syncNow();
    const events = await t.services.database.db
      .selectFrom('chain_events')
      .select(['kind', 'round_index'])
      .where('kind', 'in', ['root_proposed', 'root_cancelled'])
      .orderBy('block_number')
      .execute();
    expect(events.map((e) => `${e.kind} ${e.round_index}`)).toEqual([
      'root_proposed 1',
      'root_proposed 2',
      'root_cancelled 2',
      'root_proposed 3',
    ]);
    // Every round on chain, for anyone: no session needed.
    const rounds = await t.app.inject({ method: 'GET', url: '/api/rounds' });
    expect(rounds.statusCode, rounds.body).toBe(200);
    expect(rounds.json()).toMatchObject({
      chain: { chainId: 31337, distributorAddress: addresses.distributor },
      reviewHours: 24,
      rounds: [
        {
          index: 3,
          status: 'in_review',
          builtHere: true,
          members: 3,
          tree: '/api/distributions/3/tree.json',
        },
        {
          index: 2,
          status: 'cancelled',
          root: rogue.root.toLowerCase(),
          builtHere: false,
          members: null,
          tree: null,
          cancelledTx: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        },
        { index: 1, status: 'active', builtHere: true, members: 2, total: reme(400) },
      ],
    });
    const [three] = (rounds.json() as { rounds: Array<{ proposedAt: string; activeAt: string }> })
      .rounds;
    expect(new Date(three!.activeAt).getTime() - new Date(three!.proposedAt).getTime()).toBe(
      DAY * 1000,
    );
  });
});
