// /rpc as an anonymous caller meets it: simulations only of the two contracts' own
// functions with bounded gas and time, and relayed transactions only a member's claim or transfer.
import { HDNodeWallet, Transaction, Wallet, ZeroAddress, hexlify, randomBytes } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RELAY_GAS_CAP } from '../src/http/routes/rpc/relay-policy';
import { distributorInterface, read, rpc, tokenInterface } from './helpers/chain-client';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

/** JUMPDEST PUSH1 0 JUMP: init code that loops until its gas runs out. */
const LOOP = '0x5b600056';
const PUBLIC_TEST_KEY = HDNodeWallet.fromPhrase(
  'test test test test test test test test test test test junk',
).privateKey;
const CALL_TIMEOUT_MS = 2_000;

let t: TestApp;
let token: string;
let distributor: string;
let chainId: bigint;

beforeAll(async () => {
  t = await buildTestApp({ env: { RPC_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS) } });
  token = t.services.chain.token.target as string;
  distributor = t.services.chain.distributor.target as string;
  chainId = BigInt(t.services.chain.chainId);
}, 60_000);
afterAll(() => t?.close());

describe(`/rpc eth_call and eth_estimateGas (${testDbKind})`, () => {
  it('answers a looping contract creation with an error at once, and 100 of them leave the memory flat', async () => {
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const started = performance.now();
      const answer = await rpc(t.app, method, [{ data: LOOP }, 'latest']);
      expect(answer.error?.code).toBe(-32602);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 100; i++)
      expect((await rpc(t.app, 'eth_call', [{ data: LOOP }, 'latest'])).error?.code).toBe(-32602);
    // Forwarded at the node's default gas, each call grew the node by gigabytes (~350 MiB per
    // million gas); 100 refused calls may cost a few MiB of ordinary garbage.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 2 ** 20);
  });

  it("refuses calls to any other address, functions outside the target contract's ABI and state overrides", async () => {
    const balanceOf = tokenInterface.encodeFunctionData('balanceOf', [ZeroAddress]);
    const elsewhere = await rpc(t.app, 'eth_call', [
      { to: hexlify(randomBytes(20)), data: balanceOf },
      'latest',
    ]);
    expect(elsewhere.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/only to the REME token and the rewards distributor/),
    });
    const unknown = await rpc(t.app, 'eth_call', [{ to: token, data: '0xdeadbeef' }, 'latest']);
    expect(unknown.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/not a function of that contract/),
    });
    const claimOnToken = distributorInterface.encodeFunctionData('claim', [
      ZeroAddress,
      1n,
      [],
      1n,
    ]);
    expect(
      (await rpc(t.app, 'eth_estimateGas', [{ to: token, data: claimOnToken }])).error?.code,
    ).toBe(-32602);
    const overridden = await rpc(t.app, 'eth_call', [
      { to: token, data: balanceOf },
      'latest',
      { [token]: { code: LOOP } },
    ]);
    expect(overridden.error?.code).toBe(-32602);
  });

  it("forwards the web app's calls with the gas clamped to the cap", async () => {
    const forwarded = vi.spyOn(t.services.chain.node, 'request');
    try {
      const operator = t.services.chain.operator.address;
      expect(await read(t.app, token, tokenInterface, 'balanceOf', [operator])).toBeGreaterThan(0n);
      expect(await read(t.app, distributor, distributorInterface, 'merkleRoot', [])).toBe(
        `0x${'0'.repeat(64)}`,
      );
      const transfer = {
        from: operator,
        to: token,
        data: tokenInterface.encodeFunctionData('transfer', [hexlify(randomBytes(20)), 1n]),
        gas: '0x3938700',
      };
      expect(
        BigInt((await rpc(t.app, 'eth_estimateGas', [transfer])).result as string),
      ).toBeLessThan(RELAY_GAS_CAP);
      // Only the simulations: the chain follower may ask the node for blocks meanwhile.
      const gases = forwarded.mock.calls
        .filter(([args]) => args.method === 'eth_call' || args.method === 'eth_estimateGas')
        .map(([args]) => BigInt((args.params![0] as { gas: string }).gas));
      expect(gases).toEqual([RELAY_GAS_CAP, RELAY_GAS_CAP, RELAY_GAS_CAP]);
    } finally {
      forwarded.mockRestore();
    }
  });

  it('answers a JSON-RPC error when the chain does not answer in time', async () => {
    // The node holds every call until the test ends, then answers them: what else asked it
    // meanwhile (the chain follower) is late, not stuck for the tests after this one.
    const node = t.services.chain.node;
    const answerLater = node.request.bind(node);
    const held: Array<() => void> = [];
    const hanging = vi
      .spyOn(node, 'request')
      .mockImplementation(
        (args) =>
          new Promise((resolve, reject) =>
            held.push(() => void answerLater(args).then(resolve, reject)),
          ),
      );
    try {
      const started = performance.now();
      const answer = await rpc(t.app, 'eth_blockNumber');
      expect(answer.error).toMatchObject({
        code: -32000,
        message: `The chain did not answer within ${CALL_TIMEOUT_MS} ms`,
      });
      expect(performance.now() - started).toBeLessThan(CALL_TIMEOUT_MS + 1_000);
    } finally {
      hanging.mockRestore();
      for (const release of held) release();
    }
  });
});

describe(`/rpc requests that are not calls (${testDbKind})`, () => {
  it('answers each non-object batch element with -32600, never a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rpc',
      payload: '[null, 1, "x", [], {"jsonrpc":"2.0","id":7,"method":"eth_chainId"}]',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    const answers = res.json() as Array<{ id: unknown; error?: { code: number }; result?: string }>;
    expect(answers.slice(0, 4).map((a) => a.error?.code)).toEqual([-32600, -32600, -32600, -32600]);
    expect(answers[4]).toMatchObject({ id: 7, result: '0x7a69' });
    const single = await t.app.inject({
      method: 'POST',
      url: '/rpc',
      payload: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(single.statusCode).toBeLessThan(500);
  });
});

describe(`/rpc eth_sendRawTransaction (${testDbKind})`, () => {
  async function signed(
    fields: Partial<Parameters<typeof Transaction.from>[0] & object>,
    key = PUBLIC_TEST_KEY,
  ) {
    const wallet = new Wallet(key);
    const nonce = Number(
      (await rpc(t.app, 'eth_getTransactionCount', [wallet.address, 'latest'])).result,
    );
    return wallet.signTransaction(
      Transaction.from({
        type: 2,
        chainId,
        nonce,
        gasLimit: 100_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
        ...fields,
      }),
    );
  }

  it('refuses contract creation, other targets and functions, value, excess gas and other chains, and mines none of them', async () => {
    const blockBefore = (await rpc(t.app, 'eth_blockNumber')).result;
    const claim = distributorInterface.encodeFunctionData('claim', [ZeroAddress, 1n, [], 1n]);
    const refused = {
      'a contract creation': await signed({ to: null, data: LOOP }),
      'a payment to another address': await signed({ to: hexlify(randomBytes(20)), value: 1n }),
      'proposeRoot with a root of its own': await signed({
        to: distributor,
        data: distributorInterface.encodeFunctionData('proposeRoot', [
          1n,
          hexlify(randomBytes(32)),
          0n,
        ]),
      }),
      'approve on the token': await signed({
        to: token,
        data: tokenInterface.encodeFunctionData('approve', [ZeroAddress, 1n]),
      }),
      'a claim with more gas than the cap': await signed({
        to: distributor,
        data: claim,
        gasLimit: RELAY_GAS_CAP + 1n,
      }),
      'a claim with value': await signed({ to: distributor, data: claim, value: 1n }),
      'a claim signed for another chain': await signed({
        to: distributor,
        data: claim,
        chainId: 1n,
      }),
      'an unsigned claim': Transaction.from({
        type: 2,
        chainId,
        to: distributor,
        data: claim,
        gasLimit: 100_000n,
      }).unsignedSerialized,
    };
    for (const [what, raw] of Object.entries(refused)) {
      const answer = await rpc(t.app, 'eth_sendRawTransaction', [raw]);
      expect(answer.error?.code, what).toBe(-32003);
    }
    expect((await rpc(t.app, 'eth_sendRawTransaction', ['0x1234'])).error?.code).toBe(-32003);
    expect((await rpc(t.app, 'eth_blockNumber')).result).toBe(blockBefore);
    expect(await t.services.chain.distributor.getFunction('currentIndex')()).toBe(0n);
  });

  it("relays a REME transfer from a member's wallet", async () => {
    const member = Wallet.createRandom();
    const operator = { authorization: `Bearer ${t.services.operatorKey}` };
    await t.app.inject({
      method: 'POST',
      url: '/api/operator/fund',
      headers: operator,
      payload: { address: member.address, eth: '0.01' },
    });
    const data = tokenInterface.encodeFunctionData('transfer', [hexlify(randomBytes(20)), 0n]);
    const gas = BigInt(
      (await rpc(t.app, 'eth_estimateGas', [{ from: member.address, to: token, data }]))
        .result as string,
    );
    const sent = await rpc(t.app, 'eth_sendRawTransaction', [
      await signed({ to: token, data, gasLimit: gas }, member.privateKey),
    ]);
    expect(sent.error).toBeUndefined();
    const receipt = await rpc(t.app, 'eth_getTransactionReceipt', [sent.result]);
    expect(receipt.result).toMatchObject({ status: '0x1' });
  });
});
