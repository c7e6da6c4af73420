// Acceptance: a member's REME never depends on this server. With the real app on a test
// database and a Hardhat node in its own process, a member joins, a round is published, and the claim
// kit is built exactly as the web app builds it (core's buildClaimKit over the GET /api/me,
// /api/claim and /api/config answers) and written to a file. Then the server is closed, and a
// friend's funded account claims from that file alone with ethers against the node: the REME
// arrives at the member's address, and the same kit claims nothing a second time.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  buildClaimKit,
  claimDataResponse,
  claimKitFile,
  claimKitSchema,
  publicConfigResponse,
  userDetailsResponse,
} from '@crw/core';
import { deployContracts } from '@crw/contracts';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import {
  Contract,
  Interface,
  JsonRpcProvider,
  Wallet,
  parseEther,
  type TransactionReceipt,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import { cloneMemberKeys, joinAndConfirm, makeMemberKeys, signedInCookie } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let node: HardhatNode;
let provider: JsonRpcProvider;
let server: TestApp | undefined;

beforeAll(async () => {
  node = await startHardhatNode();
  provider = new JsonRpcProvider(node.url, 31337, {
    staticNetwork: true,
    pollingInterval: 50,
    cacheTimeout: -1,
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  provider?.destroy();
  await node?.stop();
});

const erc20 = ['function balanceOf(address) view returns (uint256)'];

describe(`the claim kit: a member claims with the server gone (${testDbKind})`, () => {
  it('claims from the downloaded file alone, sent and paid for by a friend; the same kit pays nothing more', async () => {
    // The operator deploys the contracts (node account 0), as `ops deploy` does.
    const operatorKey = node.accounts[0]!;
    const startBlock = (await provider.getBlockNumber()) + 1;
    const deployed = await deployContracts(
      new Wallet(operatorKey, provider),
      parseEther('1000000'),
    );
    const [tokenAddress, distributorAddress] = [
      await deployed.token.getAddress(),
      await deployed.distributor.getAddress(),
    ];

    server = await buildTestApp({
      env: {
        CHAIN_RPC_URL: node.url,
        OPERATOR_PRIVATE_KEY: operatorKey,
        TOKEN_ADDRESS: tokenAddress,
        DISTRIBUTOR_ADDRESS: distributorAddress,
        CHAIN_START_BLOCK: String(startBlock),
        CHAIN_CONFIRMATIONS: '0',
        CHAIN_POLL_INTERVAL_MS: '200',
      },
    });
    const { app, services } = server;

    // The member joins (with two others, so the proof is not empty) and a round is published.
    const member = await makeMemberKeys();
    await joinAndConfirm(app, services.database.db, member);
    for (const other of await Promise.all([cloneMemberKeys(member), cloneMemberKeys(member)]))
      await joinAndConfirm(app, services.database.db, other);
    const published = await app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${services.operatorKey}` },
    });
    expect(published.json()).toMatchObject({ index: 1, members: 3, outcome: 'published' });
    await services.follower.syncNow();

    // The web app's claim screen: its three answers, parsed with the same schemas, and the same core function.
    const cookie = await signedInCookie(app, member);
    const get = async <T>(url: string, schema: { parse(data: unknown): T }) => {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return schema.parse(res.json());
    };
    const me = await get('/api/me', userDetailsResponse);
    const claim = await get('/api/claim', claimDataResponse);
    const config = await get('/api/config', publicConfigResponse);
    expect(claim).toMatchObject({
      distributedTokens: parseEther('200').toString(),
      distributionIndex: 1,
    });
    expect(claim.proof.length).toBeGreaterThan(0);
    const file = claimKitFile(
      buildClaimKit({
        account: me.wallet.address,
        claim,
        chain: config.chain,
        origin: services.config.publicUrl,
      }),
    );
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'crw-kit-')), file.name);
    writeFileSync(saved, file.text);
    expect(path.basename(saved)).toBe('reme-claim-kit-round-1.json');

    // The kit points at the round's public record, from which anyone rebuilds the member's proof.
    const treeUrl = new URL(claimKitSchema.parse(JSON.parse(file.text)).treeUrl);
    expect(treeUrl.origin).toBe(new URL(services.config.publicUrl).origin);
    const record = StandardMerkleTree.load(
      (await app.inject({ method: 'GET', url: treeUrl.pathname })).json(),
    );
    expect(record.root).toBe(await deployed.distributor.getFunction('merkleRoot')());
    expect(record.getProof([member.address.toLowerCase(), claim.distributedTokens])).toEqual(
      claim.proof,
    );

    // The service disappears: the app, its database and its follower are gone.
    await server.close();
    server = undefined;

    // From here on: only the file, ethers and the chain. A friend sends the claim and pays its fee.
    const kit = claimKitSchema.parse(JSON.parse(readFileSync(saved, 'utf8')));
    expect(kit.chain.id).toBe(Number((await provider.getNetwork()).chainId));
    const friend = new Wallet(node.accounts[1]!, provider);
    const distributor = new Contract(kit.distributor.address, kit.claim.abi, friend);
    const token = new Contract(kit.token.address, erc20, provider);
    const account = kit.leaf.account;
    // The four values as a member pastes them into the explorer's form.
    const [accountValue, amountValue, proofValue, indexValue] = kit.claim.arguments.map(
      (a) => a.value,
    ) as [string, string, string, string];
    const args = [
      accountValue,
      amountValue,
      JSON.parse(proofValue) as string[],
      indexValue,
    ] as const;
    expect(await token.getFunction('balanceOf')(account)).toBe(0n);
    expect(await provider.getBalance(account)).toBe(0n); // the member has no ETH at all
    const friendEth = await provider.getBalance(friend.address);

    const sent = (await distributor.getFunction('claim')(...args)) as {
      wait(): Promise<TransactionReceipt>;
    };
    const receipt = await sent.wait();
    expect(receipt.status).toBe(1);
    expect(receipt.from).toBe(friend.address);
    expect(await token.getFunction('balanceOf')(account)).toBe(
      BigInt(kit.leaf.cumulativeAmountWei),
    );
    expect(kit.leaf.cumulativeAmountReme).toBe('200');
    expect(await token.getFunction('balanceOf')(friend.address)).toBe(0n);
    expect(await provider.getBalance(friend.address)).toBe(friendEth - receipt.fee);

    // The same kit again, this time as its raw calldata: refused with NothingToClaim, nothing paid.
    const refusal = await friend
      .sendTransaction({ to: kit.distributor.address, data: kit.claim.calldata })
      .then(
        () => null,
        (error: { data?: string }) => error,
      );
    expect(refusal?.data, 'the second claim must revert').toBeTruthy();
    const reason = new Interface(kit.claim.abi).parseError(refusal!.data!);
    expect(reason?.name).toBe('NothingToClaim');
    expect(reason?.args.toArray()).toEqual([
      account,
      BigInt(kit.leaf.cumulativeAmountWei),
      BigInt(kit.leaf.cumulativeAmountWei),
    ]);
    expect(await token.getFunction('balanceOf')(account)).toBe(
      BigInt(kit.leaf.cumulativeAmountWei),
    );
  });
});
