// Distribution rounds: compute every wallet's cumulative entitlement, store the tree
// and every member's leaf, then publish the root on-chain. Each step is recorded before the next
// starts, so a rerun after an interruption finishes the open round instead of starting another,
// and a transaction already sent is found by its hash (or sent again, byte for byte). A round is
// marked published only once the distributor is seen holding exactly the root built here.
import {
  formatReme,
  leafLayer,
  type GrowingTree,
  type PublishRoundResult,
  type RoundPreview,
} from '@crw/core';
import { getAddress, Transaction, type BlockTag } from 'ethers';
import type { Kysely } from 'kysely';
import type { Chain } from '../../infra/chain/chain';
import { recorded, sendRecorded } from '../../infra/chain/durable-tx';
import { copyField, copyRows, CopyRows } from '../../infra/db/copy';
import type { DB } from '../../infra/db/schema';
import { EVERY_MEMBER, notifyMembers } from '../../infra/db/member-notices';
import { entitlements, latestPublishedRound, type MemberEntitlement } from './entitlements';

const COPY_CHUNK = 10_000;

/** What publishing reads of a round: everything but its nodes (64 MB for a million members). */
const ROUND_STATE = [
  'round_index',
  'root',
  'total',
  'member_count',
  'status',
  'tx_hash',
  'raw_tx',
] as const;

/** The chain disagrees with the stored rounds: the round stays unpublished (the API answers 409). */
export class RoundConflict extends Error {}

/** Test seam: called after each recorded step, so a test can interrupt the run there. */
export type StepHook = (step: 'prepared' | 'sent' | 'broadcast') => Promise<void> | void;

/** What preparing a round spends its time on, each reported as it ends (bench/distribute.ts):
 * the entitlements read, the leaves hashed and sorted ('tree'), the leaves stored while the inner
 * nodes are hashed, the nodes stored with the round's row, the commit. */
export type RoundPhase = 'entitlements' | 'tree' | 'leaves' | 'nodes' | 'commit';
export type PhaseClock = (phase: RoundPhase) => void;

/** The round an earlier run stored and did not finish (at most one exists), if any. */
export async function openRound(db: Kysely<DB>) {
  return db
    .selectFrom('distribution_rounds')
    .select(['round_index', 'status', 'tx_hash'])
    .where('status', 'in', ['prepared', 'sent'])
    .executeTakeFirst();
}

/** The distributor's rounds now: the active one, the newest proposed, and that one's activeAt. */
async function chainRounds(chain: Chain, blockTag: BlockTag = 'latest') {
  const [active, , latest, activeAt, cancelled] = (await chain.distributor
    .getFunction('status')
    .staticCall({ blockTag })) as [bigint, string, bigint, bigint, boolean];
  return {
    active: Number(active),
    latest: Number(latest),
    activeAt: Number(activeAt),
    cancelled,
  };
}

/** Brings a round of this server's that is in review up to date with the chain (the follower does
 * the same as blocks come): published once the chain made it active, cancelled if a guardian
 * cancelled it. Returns the round still in review, if one is. */
async function settleReview(db: Kysely<DB>, chain: Chain) {
  const review = await db
    .selectFrom('distribution_rounds')
    .select(['round_index', 'root', 'member_count', 'total', 'tx_hash', 'active_at'])
    .where('status', '=', 'in_review')
    .executeTakeFirst();
  if (!review) return undefined;
  const rounds = await chainRounds(chain);
  if (rounds.active >= review.round_index) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('distribution_rounds')
        .set({ status: 'published', published_at: new Date() })
        .where('round_index', '=', review.round_index)
        .where('status', '=', 'in_review')
        .execute();
      await notifyMembers(trx, EVERY_MEMBER);
    });
    return undefined;
  }
  if (rounds.latest === review.round_index && rounds.cancelled) {
    await db
      .updateTable('distribution_rounds')
      .set({ status: 'cancelled', cancelled_at: new Date() })
      .where('round_index', '=', review.round_index)
      .where('status', '=', 'in_review')
      .execute();
    return undefined;
  }
  return review;
}

export async function previewRound(db: Kysely<DB>, limit = 20): Promise<RoundPreview> {
  const previous = await latestPublishedRound(db);
  const members = await entitlements(db, previous);
  const changed = members.filter((m) => m.amount !== m.previous);
  changed.sort((a, b) => (b.amount - b.previous > a.amount - a.previous ? 1 : -1));
  const open = await openRound(db);
  return {
    index: previous + 1,
    members: members.length,
    total: members.reduce((sum, m) => sum + m.amount, 0n).toString(),
    changed: changed.length,
    changes: changed.slice(0, limit).map((m) => ({
      address: getAddress(m.address),
      previous: m.previous.toString(),
      next: m.amount.toString(),
    })),
    openRound: open?.round_index ?? null,
  };
}

/**
 * Stores round `index`: each member's leaf (address, amount, tree index) and its tree's nodes. The
 * leaves are hashed and sorted first (that fixes each one's tree index); then, while the database
 * takes in the leaves by COPY, the inner nodes are hashed a slice per chunk of leaves sent, so this
 * process hashes while the database writes; the nodes go in last, with the round's row.
 */
export async function prepareRound(
  db: Kysely<DB>,
  index: number,
  members: MemberEntitlement[],
  clock: PhaseClock = () => {},
): Promise<{ root: string; total: bigint }> {
  const tree = await leafLayer(members);
  const total = members.reduce((sum, m) => sum + m.amount, 0n);
  clock('tree');
  const root = await db.transaction().execute(async (trx) => {
    const copied = await copyRows(
      trx,
      'distribution_entries',
      ['round_index', 'user_id', 'wallet_address', 'cumulative_amount', 'tree_index'],
      new CopyRows(entryLines(index, members, tree)),
    );
    if (copied !== members.length)
      throw new Error(`round ${index}: ${copied} of ${members.length} leaves stored`);
    tree.hashNodes(Infinity);
    clock('leaves');
    await trx
      .insertInto('distribution_rounds')
      .values({
        round_index: index,
        root: tree.root(),
        total,
        member_count: members.length,
        nodes: tree.nodes,
      })
      .execute();
    clock('nodes');
    return tree.root();
  });
  clock('commit');
  return { root, total };
}

/** Each member's leaf as COPY text, in chunks of lines (the members come in user id order, the
 * order of the leaves' primary key, so each new key lands on the index's last page), and between
 * two chunks the tree's share of inner nodes hashed. */
function* entryLines(
  index: number,
  members: readonly MemberEntitlement[],
  tree: GrowingTree,
): Generator<string> {
  const nodesPerChunk = Math.ceil((members.length - 1) / Math.ceil(members.length / COPY_CHUNK));
  for (let start = 0; start < members.length; start += COPY_CHUNK) {
    let lines = '';
    for (let i = start; i < Math.min(members.length, start + COPY_CHUNK); i++) {
      const m = members[i]!;
      lines += `${index}\t${copyField(m.userId)}\t${copyField(m.address)}\t${m.amount}\t${tree.treeIndex[i]}\n`;
    }
    yield lines;
    tree.hashNodes(nodesPerChunk);
  }
}

export async function publishRound(
  db: Kysely<DB>,
  chain: Chain,
  hook: StepHook = () => {},
  clock: PhaseClock = () => {},
): Promise<PublishRoundResult> {
  const review = await settleReview(db, chain);
  if (review)
    return {
      index: review.round_index,
      root: review.root,
      members: review.member_count,
      total: review.total,
      txHash: review.tx_hash ?? '',
      outcome: 'in_review',
      inReview: true,
      ...(review.active_at ? { activeAt: new Date(review.active_at).toISOString() } : {}),
    };
  let round = await db
    .selectFrom('distribution_rounds')
    .select(ROUND_STATE)
    .where('status', 'in', ['prepared', 'sent'])
    .executeTakeFirst();
  const resumed = round !== undefined;
  if (!round) {
    // A round in review on chain that is not this server's: proposed with its key by someone else.
    const rounds = await chainRounds(chain);
    if (rounds.latest > rounds.active && !rounds.cancelled)
      throw new RoundConflict(
        `round ${rounds.latest} is in review on chain but was not built by this server: a guardian should cancel it (docs/operations.md#a-round-this-server-did-not-build)`,
      );
    const previous = await latestPublishedRound(db);
    // A chain past the stored rounds: this database was restored from a backup made before the
    // chain's latest round (docs/operations.md#backups). That round's tree is gone and publishing
    // it made the stored round's proofs void, so the next round follows the chain's and pays
    // everyone's cumulative amounts again; the distributor pays only what each has not claimed.
    // Rounds a guardian cancelled count: their numbers are taken.
    const chainIndex = rounds.latest;
    const behindChain = chainIndex > previous;
    const members = await entitlements(db, previous);
    clock('entitlements');
    if (
      members.length === 0 ||
      (!behindChain &&
        previous > 0 &&
        members.every((m) => m.amount === m.previous) &&
        (await memberCount(db, previous)) === members.length)
    ) {
      const last = await db
        .selectFrom('distribution_rounds')
        .select(ROUND_STATE)
        .where('round_index', '=', previous)
        .executeTakeFirst();
      return {
        index: previous,
        root: last?.root ?? '',
        members: members.length,
        total: last?.total ?? '0',
        txHash: last?.tx_hash ?? '',
        outcome: 'unchanged',
      };
    }
    const index = Math.max(previous, chainIndex) + 1;
    await prepareRound(db, index, members, clock);
    round = await db
      .selectFrom('distribution_rounds')
      .select(ROUND_STATE)
      .where('round_index', '=', index)
      .executeTakeFirstOrThrow();
    await hook('prepared');
  }
  const onChain = (await chainRounds(chain)).latest;
  if (onChain >= round.round_index) {
    // The publishing transaction was mined before the run that sent it could record it, or
    // someone else holding the operator key published this round: only the root tells.
    await expectOnChain(chain, round, 'latest');
    return finish(db, chain, round, round.tx_hash ?? '', 'resumed');
  }
  if (onChain !== round.round_index - 1) {
    throw new RoundConflict(
      `the chain is at round ${onChain}, so round ${round.round_index} cannot be published next`,
    );
  }
  let txHash = round.tx_hash;
  if (txHash && round.raw_tx) {
    const receipt = await chain.provider.getTransactionReceipt(txHash);
    if (!receipt) {
      // Its nonce was used by another transaction: sign the same publication again.
      const sent = await sendRecorded(chain, chain.operator.address, recorded(round.raw_tx));
      if (sent === 'nonce-taken') txHash = null;
    } else if (receipt.status !== 1) {
      txHash = null;
    }
  }
  if (!txHash) {
    await expectFunding(chain, round);
    const roundIndex = round.round_index;
    const request = await chain.distributor
      .getFunction('proposeRoot')
      .populateTransaction(roundIndex, round.root, round.total);
    txHash = await chain.operatorTurn(async () => {
      const raw = await chain.operator.signTransaction(
        await chain.operator.populateTransaction(request),
      );
      const hash = Transaction.from(raw).hash!;
      await db
        .updateTable('distribution_rounds')
        .set({ status: 'sent', tx_hash: hash, raw_tx: raw })
        .where('round_index', '=', roundIndex)
        .execute();
      await hook('sent');
      // The same send rule as a resumed publication's: a nonce another transaction took (a send
      // from elsewhere with the operator's key) leaves the round to be signed again.
      if ((await sendRecorded(chain, chain.operator.address, recorded(raw))) === 'nonce-taken')
        throw new Error(`the publishing transaction ${hash} lost its nonce to another transaction`);
      await hook('broadcast');
      return hash;
    });
  }
  const receipt = await chain.provider.waitForTransaction(txHash, 1, 300_000);
  if (!receipt || receipt.status !== 1)
    throw new Error(`the publishing transaction ${txHash} failed on chain`);
  await expectOnChain(chain, round, receipt.blockNumber);
  return finish(db, chain, round, txHash, resumed ? 'resumed' : 'published');
}

/** Throws a RoundConflict, saying what to do, when the treasury's approval cannot fund `round`:
 * the distributor draws what the round adds to the active one from the treasury's allowance. */
async function expectFunding(chain: Chain, round: { round_index: number; total: string }) {
  const [treasury, activeTotal] = (await Promise.all([
    chain.distributor.getFunction('treasury')(),
    chain.distributor.getFunction('totalDistributed')(),
  ])) as [string, bigint];
  const needed = BigInt(round.total) - activeTotal;
  if (needed <= 0n) return;
  const distributor = await chain.distributor.getAddress();
  const [allowance, held] = (await Promise.all([
    chain.token.getFunction('allowance')(treasury, distributor),
    chain.token.getFunction('balanceOf')(treasury),
  ])) as [bigint, bigint];
  if (allowance < needed)
    throw new RoundConflict(
      `round ${round.round_index} draws ${formatReme(needed.toString())} REME from the treasury ${treasury}, which has approved the distributor for ${formatReme(allowance.toString())}: the treasury must approve more (docs/operations.md#separate-keys)`,
    );
  if (held < needed)
    throw new RoundConflict(
      `round ${round.round_index} draws ${formatReme(needed.toString())} REME from the treasury ${treasury}, which holds ${formatReme(held.toString())}`,
    );
}

/** Throws a RoundConflict unless, at `blockTag`, the distributor's newest round is `round` with its
 * root and total, not cancelled. */
async function expectOnChain(
  chain: Chain,
  round: { round_index: number; root: string; total: string },
  blockTag: BlockTag,
): Promise<void> {
  const { latest } = await chainRounds(chain, blockTag);
  if (latest !== round.round_index) {
    throw new RoundConflict(
      `the chain is at round ${latest}, past round ${round.round_index} that this server has not published`,
    );
  }
  const [root, total, , , cancelled] = (await chain.distributor
    .getFunction('roundOf')
    .staticCall(round.round_index, { blockTag })) as [string, bigint, bigint, bigint, boolean];
  if (root.toLowerCase() !== round.root || total !== BigInt(round.total)) {
    throw new RoundConflict(
      `round ${round.round_index} on chain has root ${root} (total ${total}), not the root ${round.root} (total ${round.total}) this server built: the round stays unpublished`,
    );
  }
  if (cancelled)
    throw new RoundConflict(`round ${round.round_index} was cancelled on chain by a guardian`);
}

async function memberCount(db: Kysely<DB>, index: number): Promise<number> {
  const row = await db
    .selectFrom('distribution_rounds')
    .select('member_count')
    .where('round_index', '=', index)
    .executeTakeFirst();
  return row?.member_count ?? 0;
}

async function finish(
  db: Kysely<DB>,
  chain: Chain,
  round: { round_index: number; root: string; member_count: number; total: string },
  txHash: string,
  outcome: PublishRoundResult['outcome'],
): Promise<PublishRoundResult> {
  const index = round.round_index;
  // In review until the distributor's activeAt (at once with no review window).
  const [, , , activeAtSeconds] = (await chain.distributor.getFunction('roundOf')(index)) as [
    string,
    bigint,
    bigint,
    bigint,
  ];
  const activeAt = new Date(Number(activeAtSeconds) * 1000);
  const active = (await chainRounds(chain)).active >= index;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('distribution_rounds')
      .set({
        status: active ? 'published' : 'in_review',
        published_at: active ? new Date() : null,
        active_at: activeAt,
      })
      .where('round_index', '=', index)
      .execute();
    // In review too: each member's dashboard shows their line and when it pays.
    await notifyMembers(trx, EVERY_MEMBER);
  });
  return {
    index,
    root: round.root,
    members: round.member_count,
    total: round.total,
    txHash,
    outcome,
    activeAt: activeAt.toISOString(),
    inReview: !active,
  };
}
