// Every round stays funded whatever members do (docs/security.md#the-funding-invariant): members
// who claimed and then deleted their accounts must not shrink what the distributor is given for the
// members after them. Checked on the embedded chain and on the production shape (a Hardhat node
// process, contracts deployed as `ops deploy` does, the relayer paying the fees), and after every
// step the distributor holds at least what the latest round still owes (read from the chain, leaf
// by leaf, from the round's public tree).
import { deployContracts } from '@crw/contracts';
import { JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import { askSponsoredClaim, deleteAccount, type SignedInMember } from './helpers/sponsored-claim';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

const REME = 10n ** 18n;

type Member = SignedInMember;

function scenario(shape: string, start: () => Promise<{ t: TestApp; stop?: () => Promise<void> }>) {
  describe(`round funding: ${shape} (${testDbKind})`, () => {
    let t: TestApp;
    let stop: (() => Promise<void>) | undefined;
    let base: MemberKeys;

    beforeAll(async () => {
      ({ t, stop } = await start());
      base = await makeMemberKeys();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await stop?.();
    });

    const operator = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
    const chain = () => t.services.chain;
    const distributorAddress = () => String(chain().distributor.target);

    async function join(): Promise<Member> {
      const keys = await cloneMemberKeys(base);
      await joinAndConfirm(t.app, t.services.database.db, keys);
      return { keys, cookie: await signedInCookie(t.app, keys) };
    }

    async function publish(): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/operator/distributions',
        headers: operator(),
      });
      expect(res.statusCode, res.body).toBe(200);
      await t.services.follower.syncNow();
      return (res.json() as { index: number }).index;
    }

    /** What the latest round still owes, leaf by leaf, from its public tree and the chain. */
    async function owedOnChain(): Promise<bigint> {
      const index = Number(await chain().distributor.getFunction('currentIndex')());
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/distributions/${index}/tree.json`,
      });
      expect(res.statusCode, res.body).toBe(200);
      const { values } = res.json() as { values: Array<{ value: [string, string] }> };
      let owed = 0n;
      for (const {
        value: [address, cumulative],
      } of values) {
        const claimed = BigInt(await chain().distributor.getFunction('claimed')(address));
        if (BigInt(cumulative) > claimed) owed += BigInt(cumulative) - claimed;
      }
      return owed;
    }

    async function expectFunded(step: string): Promise<void> {
      const balance = BigInt(await chain().token.getFunction('balanceOf')(distributorAddress()));
      const owed = await owedOnChain();
      expect(
        balance,
        `after ${step}: the distributor holds ${balance}, owes ${owed}`,
      ).toBeGreaterThanOrEqual(owed);
      // The server reports the same figures once its chain index has caught up.
      await t.services.follower.syncNow();
      const figure = (text: string, name: string) =>
        Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
      await until(
        async () => {
          const { body } = await t.app.inject({
            method: 'GET',
            url: '/metrics',
            headers: operator(),
          });
          return (
            figure(body, 'crw_distributor_balance_wei') === Number(balance) &&
            figure(body, 'crw_distributor_owed_wei') === Number(owed) &&
            figure(body, 'crw_distributor_shortfall_wei') === 0
          );
        },
        { what: `the /metrics funding figures after ${step}` },
      );
    }

    async function claimAll(members: Member[]): Promise<void> {
      for (const m of members) {
        const res = await askSponsoredClaim(t, m);
        expect(res.statusCode, res.body).toBe(202);
      }
      await until(
        async () => {
          await t.services.relayer!.passNow();
          const rows = await t.services.database.db
            .selectFrom('sponsored_claims')
            .select('status')
            .where('status', 'in', ['queued', 'sent'])
            .execute();
          return rows.length === 0;
        },
        { what: 'the relayer to finish the claims', timeoutMs: 30_000 },
      );
      for (const m of members) {
        const paid = await chain().token.getFunction('balanceOf')(m.keys.address);
        expect(paid, `${m.keys.email} was paid in full`).toBe(200n * REME);
      }
    }

    it('members who claimed and deleted their accounts leave the next round funded; its members claim in full', async () => {
      const first = [await join(), await join(), await join()];
      expect(await publish()).toBe(1);
      await expectFunded('round 1');
      await claimAll(first);
      await expectFunded('the first members claimed');

      for (const m of first) {
        const res = await deleteAccount(t, m);
        expect(res.statusCode, res.body).toBe(200);
      }
      await expectFunded('they deleted their accounts');

      const second = [await join(), await join(), await join()];
      expect(await publish()).toBe(2);
      await expectFunded('round 2');
      await claimAll(second);
      await expectFunded('the new members claimed');

      // A third round with nothing new changes nothing on chain and stays funded.
      const third = await t.app.inject({
        method: 'POST',
        url: '/api/operator/distributions',
        headers: operator(),
      });
      expect(third.json()).toMatchObject({ outcome: 'unchanged', index: 2 });
      await expectFunded('an unchanged round');
    });

    it('a shortfall left by an earlier rule is reported in /metrics and the log, and ops fund-distributor repairs it', async () => {
      const gone = [await join(), await join()];
      const round = await publish();
      await claimAll(gone);
      const ids: string[] = [];
      for (const m of gone) {
        const me = await t.app.inject({
          method: 'GET',
          url: '/api/me',
          headers: { cookie: m.cookie },
        });
        ids.push((me.json() as { id: string }).id);
        expect((await deleteAccount(t, m)).statusCode).toBe(200);
      }
      // An install that published under the old rule dropped the leaves of deleted members.
      await t.services.database.db
        .deleteFrom('distribution_entries')
        .where('round_index', '=', round)
        .where('user_id', 'in', ids)
        .execute();
      const next = [await join(), await join()];
      await publish();

      const shortfall = async () => {
        await t.services.follower.syncNow();
        await t.services.funding.settled();
        const { body } = await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: operator(),
        });
        return /^crw_distributor_shortfall_wei (\S+)$/m.exec(body)?.[1];
      };
      await until(async () => (await shortfall()) === String(400n * REME), {
        what: 'the shortfall in /metrics',
      });
      expect(
        t.logs.some(
          (l) => l.level === 50 && String(l.msg).includes('npm run ops -- fund-distributor'),
        ),
      ).toBe(true);

      const fund = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/operator/distributor/fund',
          headers,
          payload: {},
        });
      expect((await fund({})).statusCode).toBe(401);
      expect((await fund({ cookie: next[0]!.cookie, origin: ORIGIN })).statusCode).toBe(401);
      expect((await fund({ authorization: 'Bearer wrong' })).statusCode).toBe(401);

      const repaired = await fund(operator());
      expect(repaired.statusCode, repaired.body).toBe(200);
      expect(repaired.json()).toMatchObject({ sent: String(400n * REME), shortfall: '0' });
      expect(repaired.json().txHash).toMatch(/^0x[0-9a-f]{64}$/);
      const again = await fund(operator());
      expect(again.json()).toMatchObject({ txHash: null, sent: '0', shortfall: '0' });
      const audit = await t.services.database.db
        .selectFrom('operator_audit')
        .select(['action', 'detail'])
        .where('action', '=', 'distributor.fund')
        .execute();
      expect(audit).toHaveLength(1);

      await expectFunded('the repair');
      await claimAll(next);
      await expectFunded('the members after the repair claimed');
    });
  });
}

scenario('embedded chain', async () => ({
  t: await buildTestApp({ env: { SPONSOR_CLAIMS: 'true', RELAYER_BATCH_WAIT_MS: '0' } }),
}));

scenario('Hardhat node process, deployed contracts, relayer', async () => {
  const node: HardhatNode = await startHardhatNode();
  const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
  const startBlock = (await provider.getBlockNumber()) + 1;
  const deployed = await deployContracts(
    new Wallet(node.accounts[0]!, provider),
    parseEther('1000000'),
  );
  provider.destroy();
  const t = await buildTestApp({
    env: {
      CHAIN_RPC_URL: node.url,
      TOKEN_ADDRESS: await deployed.token.getAddress(),
      DISTRIBUTOR_ADDRESS: await deployed.distributor.getAddress(),
      OPERATOR_PRIVATE_KEY: node.accounts[0]!,
      CHAIN_START_BLOCK: String(startBlock),
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_POLL_INTERVAL_MS: '200',
      SPONSOR_CLAIMS: 'true',
      RELAYER_PRIVATE_KEY: node.accounts[1]!,
      RELAYER_BATCH_WAIT_MS: '0',
    },
  });
  return { t, stop: () => node.stop() };
});
