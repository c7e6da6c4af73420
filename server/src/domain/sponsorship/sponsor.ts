// Sponsored claims, the member's side: whether the operator pays the fee now, and the
// checks a signed claim request passes before it is queued — the session's own wallet signed it,
// for this chain and distributor, for the member's leaf in the current round, fresh, not already
// claimed or on its way, within the day's budget and the fee ceiling. A refused request costs the
// sponsor nothing: nothing is queued and no transaction is sent.
import {
  CLAIM_REQUEST_LIFETIME_S,
  claimRequestSigner,
  type RelayerStatus,
  type SponsoredClaim,
  type SponsoredClaimRequest,
  type Sponsorship,
} from '@crw/core';
import { sql, type Kysely } from 'kysely';
import { parseEther, parseUnits } from 'ethers';
import { AppError } from '../../app-error';
import type { Chain } from '../../infra/chain/chain';
import type { Config } from '../../config';
import type { DB } from '../../infra/db/schema';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import { notifyMembers } from '../../infra/db/member-notices';

/** Gas held against the budget per queued claim: above a batched claim's share (~40,000) with margin. */
export const RESERVED_GAS_PER_CLAIM = 60_000n;
const FEE_DATA_MAX_AGE_MS = 10_000;

export interface SponsorSettings {
  enabled: boolean;
  dailyBudgetWei: bigint;
  maxFeePerGasWei: bigint;
  /** Accounts younger than this pay their own fee. */
  minAccountAgeHours: number;
  /** What one network may spend of the day's budget, in percent. */
  networkSharePercent: number;
}

/** Who asks: the member and the client network (IPv4 /24, IPv6 /48) the request came from. */
export interface Claimant {
  userId: string;
  network: string;
}

export function sponsorSettings(config: Config): SponsorSettings {
  return {
    enabled: config.sponsorClaims,
    dailyBudgetWei: parseEther(config.SPONSOR_DAILY_BUDGET_ETH),
    maxFeePerGasWei: parseUnits(config.SPONSOR_MAX_FEE_GWEI, 'gwei'),
    minAccountAgeHours: config.SPONSOR_MIN_ACCOUNT_AGE_HOURS,
    networkSharePercent: config.SPONSOR_NETWORK_SHARE_PERCENT,
  };
}

export interface FeeQuote {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The network's fee now (EIP-1559), read at most every 10 s. */
export class FeeOracle {
  #last: { at: number; quote: FeeQuote } | undefined;

  constructor(readonly chain: Chain) {}

  async quote(): Promise<FeeQuote> {
    if (this.#last && Date.now() - this.#last.at < FEE_DATA_MAX_AGE_MS) return this.#last.quote;
    const data = await this.chain.provider.getFeeData();
    const maxPriorityFeePerGas = data.maxPriorityFeePerGas ?? parseUnits('1', 'gwei');
    const maxFeePerGas = data.maxFeePerGas ?? (data.gasPrice ?? 0n) + maxPriorityFeePerGas;
    const quote = { maxFeePerGas, maxPriorityFeePerGas };
    this.#last = { at: Date.now(), quote };
    return quote;
  }
}

/** What the day's sponsored claims cost or hold (UTC day): paid shares, and reservations of the live
 * ones. Read from the sponsor's ledger (migration 0019), which deleting an account leaves as it is:
 * a member who claims and leaves still spent the day's budget. */
export async function spentToday(db: Kysely<DB>, network?: string): Promise<bigint> {
  const { rows } = await sql<{ wei: string | null }>`
    SELECT sum(wei)::text AS wei FROM sponsor_spending
     WHERE created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
       ${network === undefined ? sql`` : sql`AND network = ${network}`}`.execute(db);
  return BigInt(rows[0]?.wei ?? '0');
}

/** Whether the member `p` (a profile row) joined less than `minAgeHours` ago. */
const youngAccount = (minAgeHours: number) =>
  sql<boolean>`p.created_at > now() - make_interval(hours => ${minAgeHours})`;

/** Whether the member `p`'s rewards are being checked: a cash-out flag, or a flagged joining not
 * released by an operator (docs/operations.md#reward-integrity). */
const rewardsUnderCheck = sql<boolean>`(
  EXISTS (SELECT 1 FROM reward_flags f WHERE f.subject_id = p.id AND f.signal = 'cash_out')
  OR flagged_subject(p.id) AND EXISTS (
    SELECT 1 FROM reward_ledger l WHERE l.subject_id = p.id AND l.status <> 'released'))`;

/** Whether the sponsor never pays for the member `p` (a profile row), whatever the budget: one
 * question for a member's own request and for a round's claims made for members. */
export const unsponsoredMember = (minAgeHours: number) =>
  sql<boolean>`(${youngAccount(minAgeHours)} OR ${rewardsUnderCheck})`;

/** Why this member pays their own fee whatever the budget: an account too new, or one whose
 * joining was flagged and not released by an operator (docs/operations.md#reward-integrity). */
async function memberUnsponsoredBecause(
  db: Kysely<DB>,
  settings: SponsorSettings,
  userId: string,
): Promise<string | null> {
  const { rows } = await sql<{ young: boolean; checked: boolean }>`
    SELECT ${youngAccount(settings.minAccountAgeHours)} AS young, ${rewardsUnderCheck} AS checked
      FROM profiles p WHERE p.id = ${userId}`.execute(db);
  const member = rows[0];
  if (!member) return null;
  if (member.checked) return 'While the community checks your rewards, you pay your own claim fee.';
  if (member.young)
    return `New accounts pay their own claim fee for their first ${settings.minAccountAgeHours} hours.`;
  return null;
}

/** Why the member pays the fee themselves right now, or null when the operator pays it. */
async function unavailableBecause(
  db: Kysely<DB>,
  settings: SponsorSettings,
  fees: FeeOracle,
  claimant: Claimant,
  reserve: () => bigint | Promise<bigint>,
): Promise<string | null> {
  if (!settings.enabled) return 'This community does not pay claim fees for its members.';
  const refused = await memberUnsponsoredBecause(db, settings, claimant.userId);
  if (refused !== null) return refused;
  let quote: FeeQuote;
  try {
    quote = await fees.quote();
  } catch {
    return 'The blockchain network cannot be reached right now.';
  }
  if (quote.maxFeePerGas > settings.maxFeePerGasWei)
    return 'Network fees are unusually high right now, above what this community pays.';
  const reserved = await reserve();
  if ((await spentToday(db)) + reserved > settings.dailyBudgetWei)
    return "Today's budget for paying members' fees is used up. It renews at midnight (UTC).";
  const share = (settings.dailyBudgetWei * BigInt(settings.networkSharePercent)) / 100n;
  if ((await spentToday(db, claimant.network)) + reserved > share)
    return "Today's share of the fee budget for claims from your network is used up. It renews at midnight (UTC).";
  return null;
}

async function reservation(fees: FeeOracle): Promise<bigint> {
  return RESERVED_GAS_PER_CLAIM * (await fees.quote()).maxFeePerGas;
}

export function claimView(row: {
  id: number;
  status: SponsoredClaim['status'];
  round_index: number;
  amount: string;
  reason: string | null;
  updated_at: Date;
  mined_hash: string | null;
  attempts: unknown;
  for_me: boolean;
}): SponsoredClaim {
  const attempts = (row.attempts ?? []) as Array<{ hash: string }>;
  return {
    id: row.id,
    status: row.status,
    round: row.round_index,
    amount: row.amount,
    txHash: row.mined_hash ?? attempts.at(-1)?.hash ?? null,
    reason: row.reason,
    updatedAt: new Date(row.updated_at).toISOString(),
    forMe: row.for_me,
  };
}

export async function latestSponsoredClaim(
  db: Kysely<DB>,
  userId: string,
): Promise<SponsoredClaim | null> {
  const row = await db
    .selectFrom('sponsored_claims as c')
    .leftJoin('relayer_transactions as t', (join) =>
      join.onRef('t.relayer', '=', 'c.relayer').onRef('t.nonce', '=', 'c.tx_nonce'),
    )
    .select([
      'c.id',
      'c.status',
      'c.round_index',
      'c.amount',
      'c.reason',
      'c.updated_at',
      't.mined_hash',
      't.attempts',
      'c.for_me',
    ])
    .where('c.user_id', '=', userId)
    .orderBy('c.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? claimView(row) : null;
}

export async function sponsorship(
  db: Kysely<DB>,
  settings: SponsorSettings,
  fees: FeeOracle,
  claimant: Claimant,
): Promise<Sponsorship> {
  const reason = await unavailableBecause(db, settings, fees, claimant, () => reservation(fees));
  return {
    available: reason === null,
    reason,
    latest: await latestSponsoredClaim(db, claimant.userId),
  };
}

/** Checks and queues a member's signed claim request; throws an AppError with the reason when refused. */
export async function requestSponsoredClaim(
  db: Kysely<DB>,
  chain: Chain,
  settings: SponsorSettings,
  fees: FeeOracle,
  claimant: Claimant,
  request: SponsoredClaimRequest,
  now = Date.now(),
): Promise<SponsoredClaim> {
  const { userId } = claimant;
  const member = await db
    .selectFrom('user_wallets as u')
    .leftJoin('chain_follower_state as s', (join) => join.onTrue())
    .leftJoin('distribution_entries as e', (join) =>
      join.onRef('e.round_index', '=', 's.round_index').onRef('e.user_id', '=', 'u.user_id'),
    )
    .leftJoin('chain_wallets as w', (join) => join.onRef('w.address', '=', 'u.wallet_address'))
    .select(['u.wallet_address', 's.round_index', 'e.cumulative_amount', 'w.claimed'])
    .where('u.user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw new AppError(401, 'unauthorized');
  const account = member.wallet_address;
  // Another member's account, or a signature by any key but the member's own wallet.
  if (request.account.toLowerCase() !== account)
    throw new AppError(400, 'invalid_claim', 'This claim is not for your wallet.');
  const signer = claimRequestSigner(
    chain.chainId,
    String(chain.distributor.target),
    request,
    request.signature,
  );
  if (signer === null || signer.toLowerCase() !== account)
    throw new AppError(400, 'invalid_claim_signature');
  const nowS = Math.floor(now / 1000);
  if (request.deadline <= nowS || request.deadline > nowS + CLAIM_REQUEST_LIFETIME_S + 60)
    throw new AppError(400, 'claim_request_expired');
  const round = member.round_index ?? 0;
  if (request.round !== round) throw new AppError(409, 'stale_round');
  if (member.cumulative_amount === null || request.cumulativeAmount !== member.cumulative_amount)
    throw new AppError(400, 'invalid_claim');
  const claimed = BigInt(member.claimed ?? 0);
  const cumulative = BigInt(member.cumulative_amount);
  if (cumulative <= claimed) throw new AppError(409, 'nothing_to_claim');

  const reserved = await reservation(fees).catch(() => {
    throw new AppError(503, 'chain_unavailable');
  });
  const queued = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEYS.sponsorBudget})`.execute(trx);
    const live = await trx
      .selectFrom('sponsored_claims')
      .select('id')
      .where('account', '=', account)
      .where('cumulative_amount', '=', member.cumulative_amount!)
      .where('status', '<>', 'failed')
      .executeTakeFirst();
    if (live) throw new AppError(409, 'claim_in_progress');
    const reason = await unavailableBecause(trx, settings, fees, claimant, () => reserved);
    if (reason !== null)
      throw new AppError(
        409,
        'sponsor_unavailable',
        `${reason} You can still claim by paying the network fee yourself.`,
      );
    const row = await trx
      .insertInto('sponsored_claims')
      .values({
        user_id: userId,
        account,
        round_index: round,
        cumulative_amount: cumulative.toString(),
        amount: (cumulative - claimed).toString(),
        signature: request.signature,
        deadline: new Date(request.deadline * 1000),
        status: 'queued',
        reserved_wei: reserved.toString(),
        network: claimant.network,
      })
      .returning(['id', 'status', 'round_index', 'amount', 'reason', 'updated_at', 'for_me'])
      .executeTakeFirstOrThrow();
    await notifyMembers(trx, [userId]);
    return row;
  });
  return claimView({ ...queued, mined_hash: null, attempts: [] });
}

/** The relayer's figures for the operator (CLI and /metrics). */
export async function relayerStatus(
  db: Kysely<DB>,
  settings: SponsorSettings,
  relayer: { address: string; balanceWei: bigint | null; chain: Chain } | undefined,
): Promise<RelayerStatus> {
  const counts = await db
    .selectFrom('sponsored_claims')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const txs = await db
    .selectFrom('relayer_transactions')
    .select([
      'status',
      (eb) => eb.fn.countAll<number>().as('n'),
      sql<string>`coalesce(sum(cost_wei), 0)::text`.as('cost'),
    ])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  const txCount = (status: string) => Number(txs.find((t) => t.status === status)?.n ?? 0);
  const balance = relayer
    ? (relayer.balanceWei ??
      (await relayer.chain.provider.getBalance(relayer.address).catch(() => null)))
    : null;
  return {
    enabled: settings.enabled && relayer !== undefined,
    address: relayer?.address ?? null,
    balance: balance === null ? null : balance.toString(),
    spentToday: (await spentToday(db)).toString(),
    dailyBudget: settings.dailyBudgetWei.toString(),
    queue: {
      queued: count('queued'),
      sent: count('sent'),
      confirmed: count('confirmed'),
      failed: count('failed'),
    },
    transactions: {
      mined: txCount('mined'),
      pending: txCount('pending'),
      failed: txCount('failed'),
      costWei: txs.reduce((sum, t) => sum + BigInt(t.cost), 0n).toString(),
    },
  };
}
