// The relayer: sends queued sponsored claims in batches (the distributor's claimMany)
// from its own wallet, in one process at a time (leader lock). Its rules:
// - A transaction is signed and recorded (relayer_transactions) before it is broadcast, so a crash
//   at any point leaves a record to finish from: a recorded transaction the node does not know is
//   broadcast again; one mined is reconciled.
// - One transaction in flight at a time, and the next nonce only after the last is mined: no nonce
//   is skipped or used for two batches.
// - A batch not mined after RELAYER_REPLACE_AFTER_SECONDS is signed again with the same nonce and
//   calldata and a higher fee (at most SPONSOR_MAX_FEE_GWEI); whichever version is mined counts.
// - Claims already paid (the follower's index says so) are never put in a batch; the contract
//   skips, rather than reverts on, one that was paid meanwhile, so a batch never reverts for one.
// - A batch whose estimate reverts is split (unpayable.ts): claims the contract refuses alone fail
//   with a reason, the longest run of the others it pays together is sent; none is estimated twice.
// - A batch the chain loses after it was recorded (lost-batches.ts) has its claims queued again and
//   its nonce taken from the chain again.
import type { Log } from '../../logging';
import {
  Transaction,
  Wallet,
  formatEther,
  keccak256,
  parseEther,
  type TransactionReceipt,
} from 'ethers';
import type { Kysely } from 'kysely';
import type { Chain } from '../../infra/chain/chain';
import type { Config } from '../../config';
import type { Database } from '../../infra/db/database';
import { recorded, sendRecorded } from '../../infra/chain/durable-tx';
import { STOP_WAIT_MS } from '../../infra/db/leader-lock';
import { LeaderLoop } from '../../lib/leader-loop';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import type { DB, RelayerAttempt } from '../../infra/db/schema';
import { claimData } from '../distribution/claims';
import { notifyMembers } from '../../infra/db/member-notices';
import { FeeOracle, sponsorSettings, type SponsorSettings } from './sponsor';
import { requeueLostBatch } from './lost-batches';
import { planPayable, revertData, unpayableReason, type Estimate } from './unpayable';

const LOW_BALANCE_LOG_EVERY_MS = 60 * 60 * 1000;
const BALANCE_READ_EVERY_MS = 60 * 1000;
/** A replacement must raise both fees by at least 10 % for nodes to accept it; a 25 % step keeps clear of that. */
const REPLACEMENT_BUMP_PERCENT = 125n;

export interface RelayerSettings {
  batchSize: number;
  batchWaitMs: number;
  replaceAfterMs: number;
  confirmations: number;
  lowBalanceWei: bigint;
  sponsor: SponsorSettings;
}

export function relayerSettings(config: Config): RelayerSettings {
  return {
    batchSize: config.RELAYER_BATCH_SIZE,
    batchWaitMs: config.RELAYER_BATCH_WAIT_MS,
    replaceAfterMs: config.RELAYER_REPLACE_AFTER_SECONDS * 1000,
    confirmations: config.chainConfirmations,
    lowBalanceWei: parseEther(config.RELAYER_LOW_BALANCE_ETH),
    sponsor: sponsorSettings(config),
  };
}

interface PendingTx {
  nonce: number;
  round_index: number;
  attempts: RelayerAttempt[];
}

export class Relayer {
  readonly address: string;
  readonly fees: FeeOracle;
  readonly #db: Kysely<DB>;
  readonly #loop: LeaderLoop;
  readonly #wallet: Wallet;
  #lowBalanceLoggedAt = 0;
  /** The nonce of the batch last reported as waiting at the fee ceiling. */
  #waitingAtCeiling: number | undefined;
  #balanceReadAt = 0;
  /** The relayer's balance as last read (metrics). */
  balanceWei: bigint | null = null;

  constructor(
    readonly settings: RelayerSettings,
    database: Database,
    readonly chain: Chain,
    privateKey: string,
    readonly log: Log,
  ) {
    this.#db = database.db;
    this.#wallet = new Wallet(privateKey, chain.provider);
    this.address = this.#wallet.address;
    this.#loop = new LeaderLoop({
      lock: database.leaderLock(LOCK_KEYS.relayer),
      onLead: () =>
        log.info({ relayer: this.address }, 'relayer: this process sends sponsored claims'),
      pass: () => this.#pass(),
      onError: (error) => log.warn({ err: error }, 'relayer: a pass failed; it is retried'),
      waitMs: () => Math.max(250, Math.min(settings.batchWaitMs || 1_000, 5_000)),
      stopWaitMs: STOP_WAIT_MS,
    });
    this.fees = new FeeOracle(chain);
  }

  get leading(): boolean {
    return this.#loop.leading;
  }

  async start(): Promise<void> {
    this.#loop.startIn(0);
  }

  /** A claim was queued: send soon (after RELAYER_BATCH_WAIT_MS lets others join the batch). A
   * wake only brings the next pass forward, never puts it off: claims arriving more often than
   * RELAYER_BATCH_WAIT_MS would otherwise keep every pass (sending, replacing) from running. */
  wake(): void {
    this.#loop.wakeWithin(this.settings.batchWaitMs);
  }

  /** One pass now (tests); resolves when it has run. */
  passNow(): Promise<void> {
    return this.#loop.runNow();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #pass(): Promise<void> {
    // Finish what is in flight first (also what a crashed process left), then send the next batch.
    const pending = await this.#pendingTx();
    if (pending) await this.#reconcile(pending);
    if (!(await this.#pendingTx())) {
      const sent = await this.#sendBatch();
      if (sent) await this.#reconcile(sent);
    }
    await this.#watchBalance();
  }

  async #pendingTx(): Promise<PendingTx | undefined> {
    return this.#db
      .selectFrom('relayer_transactions')
      .select(['nonce', 'round_index', 'attempts'])
      .where('relayer', '=', this.address.toLowerCase())
      .where('status', '=', 'pending')
      .orderBy('nonce')
      .executeTakeFirst();
  }

  async #request<T>(method: string, params: unknown[]): Promise<T> {
    return (await this.chain.node.request({ method, params })) as T;
  }

  async #broadcast(raw: string): Promise<void> {
    try {
      // Already on chain, or its nonce taken by another transaction: reconciling finds out which.
      await sendRecorded(this.chain, this.address, recorded(raw));
    } catch (error) {
      this.log.warn({ err: error }, 'relayer: broadcasting failed; it is retried at the next pass');
    }
  }

  /** Sends the next batch of queued claims; returns the recorded transaction, or undefined when none. */
  async #sendBatch(): Promise<PendingTx | undefined> {
    const round =
      (await this.#db.selectFrom('chain_follower_state').select('round_index').executeTakeFirst())
        ?.round_index ?? 0;
    // Claims of a round that is no longer current cannot be paid with their proof; claims of a
    // round the follower has not seen yet ("claim for me" right after a publish) wait for it.
    const stale = await this.#db
      .updateTable('sponsored_claims')
      .set({
        status: 'failed',
        reason:
          'A new distribution round was published before this claim was sent. Please claim again.',
        updated_at: new Date(),
      })
      .where('status', '=', 'queued')
      .where('round_index', '<', round)
      .returning('user_id')
      .execute();
    await this.#notify(stale.map((s) => s.user_id));

    const queued = await this.#db
      .selectFrom('sponsored_claims as c')
      .leftJoin('chain_wallets as w', (join) => join.onRef('w.address', '=', 'c.account'))
      .select(['c.id', 'c.user_id', 'c.account', 'c.cumulative_amount', 'w.claimed'])
      .where('c.status', '=', 'queued')
      .where('c.round_index', '=', round)
      .orderBy('c.id')
      .limit(this.settings.batchSize)
      .execute();
    if (queued.length === 0) return undefined;
    // Paid meanwhile (the member claimed by themselves): done, at no cost to the sponsor.
    const paid = queued.filter((c) => BigInt(c.claimed ?? 0) >= BigInt(c.cumulative_amount));
    if (paid.length > 0) {
      await this.#db
        .updateTable('sponsored_claims')
        .set({
          status: 'confirmed',
          reason: 'Already claimed.',
          spent_wei: '0',
          updated_at: new Date(),
        })
        .where(
          'id',
          'in',
          paid.map((c) => c.id),
        )
        .execute();
      await this.#notify(paid.map((c) => c.user_id));
    }
    const batch = queued.filter((c) => !paid.includes(c));
    if (batch.length === 0) return undefined;

    const entries = await Promise.all(
      batch.map(async (c) => {
        const { proof } = await claimData(this.#db, round, c.user_id);
        return { row: c, claim: [c.account, c.cumulative_amount, proof] as const };
      }),
    );
    const to = String(this.chain.distributor.target);
    const encode = (list: typeof entries) =>
      this.chain.distributor.interface.encodeFunctionData('claimMany', [
        round,
        list.map((e) => e.claim),
      ]);
    const estimate: Estimate<(typeof entries)[number]> = async (list) => {
      try {
        const gas = await this.#request<string>('eth_estimateGas', [
          { from: this.address, to, data: encode(list) },
        ]);
        return { gas: BigInt(gas) };
      } catch (error) {
        const revert = revertData(error);
        if (revert === null) throw error;
        return { revert };
      }
    };
    const whole = await estimate(entries);
    let sending = { claims: entries, gas: 'gas' in whole ? whole.gas : 0n };
    if ('revert' in whole) {
      const plan = await planPayable(entries, estimate);
      await this.#failUnpayable(plan.unpayable);
      if (!plan.send) return undefined;
      sending = plan.send;
    }
    const data = encode(sending.claims);
    const gasLimit = (sending.gas * 12n) / 10n;
    const quote = await this.fees.quote();
    const maxFeePerGas =
      quote.maxFeePerGas > this.settings.sponsor.maxFeePerGasWei
        ? this.settings.sponsor.maxFeePerGasWei
        : quote.maxFeePerGas;
    const maxPriorityFeePerGas =
      quote.maxPriorityFeePerGas > maxFeePerGas ? maxFeePerGas : quote.maxPriorityFeePerGas;
    const relayer = this.address.toLowerCase();
    const onChain = Number(
      await this.#request<string>('eth_getTransactionCount', [this.address, 'latest']),
    );
    await this.#requeueBatchesTheChainLost(onChain);
    const recorded = await this.#db
      .selectFrom('relayer_transactions')
      .select((eb) => eb.fn.max('nonce').as('nonce'))
      .where('relayer', '=', relayer)
      .executeTakeFirst();
    const nonce = Math.max(
      recorded?.nonce === null || recorded?.nonce === undefined ? 0 : Number(recorded.nonce) + 1,
      onChain,
    );
    const attempt = await this.#sign({
      to,
      data,
      gasLimit,
      nonce,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });

    // Recorded before it is broadcast: a crash after this line is finished by the next pass.
    const ids = sending.claims.map((e) => e.row.id);
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('relayer_transactions')
        .values({
          relayer,
          nonce,
          round_index: round,
          status: 'pending',
          attempts: JSON.stringify([attempt]),
        })
        .execute();
      await trx
        .updateTable('sponsored_claims')
        .set({ status: 'sent', relayer, tx_nonce: nonce, updated_at: new Date() })
        .where('id', 'in', ids)
        .where('status', '=', 'queued')
        .execute();
      await notifyIn(
        trx,
        sending.claims.map((e) => e.row.user_id),
      );
    });
    this.log.info(
      { nonce, claims: ids.length, hash: attempt.hash, gasLimit: gasLimit.toString() },
      'relayer: batch sent',
    );
    await this.#broadcast(attempt.raw);
    return { nonce, round_index: round, attempts: [attempt] };
  }

  /** Recorded batches at or above the chain's nonce whose transaction the node no longer has: the
   * chain lost them (no pending batch is left when this runs). Their claims go back to the queue
   * and their nonce is the next batch's, as the chain says. */
  async #requeueBatchesTheChainLost(onChain: number): Promise<void> {
    const relayer = this.address.toLowerCase();
    const beyond = await this.#db
      .selectFrom('relayer_transactions')
      .select(['nonce', 'mined_hash'])
      .where('relayer', '=', relayer)
      .where('status', '<>', 'pending')
      .where('nonce', '>=', onChain)
      .execute();
    for (const batch of beyond) {
      // A node behind the one that answered the nonce may still lack it: only a batch whose
      // receipt is gone too is lost.
      if (batch.mined_hash && (await this.chain.provider.getTransactionReceipt(batch.mined_hash)))
        continue;
      const claims = await requeueLostBatch(this.#db, relayer, Number(batch.nonce));
      this.log.warn(
        { nonce: Number(batch.nonce), claims },
        'relayer: the chain no longer has a recorded batch; its nonce is used again and its claims are queued again',
      );
    }
  }

  /** Fails the claims the contract refuses even alone, with the reason the member reads: they are
   * never estimated again, and the member may ask again (or delete their account). */
  async #failUnpayable(
    unpayable: Array<{ claim: { row: { id: number; user_id: string } }; revert: string }>,
  ): Promise<void> {
    if (unpayable.length === 0) return;
    const contracts = [this.chain.token.interface, this.chain.distributor.interface];
    await this.#db.transaction().execute(async (trx) => {
      for (const { claim, revert } of unpayable)
        await trx
          .updateTable('sponsored_claims')
          .set({
            status: 'failed',
            reason: unpayableReason(revert, contracts),
            spent_wei: '0',
            updated_at: new Date(),
          })
          .where('id', '=', claim.row.id)
          .where('status', '=', 'queued')
          .execute();
      await notifyIn(
        trx,
        unpayable.map((u) => u.claim.row.user_id),
      );
    });
    this.log.error(
      {
        claims: unpayable.length,
        reverts: [...new Set(unpayable.map((u) => u.revert.slice(0, 10)))],
      },
      'relayer: the distributor cannot pay these claims; they failed and the members were told. Is the distributor funded for its round? (npm run ops -- fund-distributor)',
    );
  }

  async #sign(tx: {
    to: string;
    data: string;
    gasLimit: bigint;
    nonce: number;
    maxFeePerGas: bigint;
    maxPriorityFeePerGas: bigint;
  }): Promise<RelayerAttempt> {
    const raw = await this.#wallet.signTransaction({
      type: 2,
      chainId: this.chain.chainId,
      value: 0n,
      ...tx,
    });
    return {
      hash: keccak256(raw),
      raw,
      maxFeePerGas: tx.maxFeePerGas.toString(),
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
      signedAt: new Date().toISOString(),
    };
  }

  /** Finds out what became of a recorded transaction and records it: mined, stuck, unknown, superseded. */
  async #reconcile(tx: PendingTx): Promise<void> {
    // The nonce is read before the receipts are looked for: a version of ours mined after this read
    // has its receipt found below, so a nonce used with no receipt of ours means another
    // transaction took it. (Read after them, a block mined in between looked like just that.)
    const onChain = Number(
      await this.#request<string>('eth_getTransactionCount', [this.address, 'latest']),
    );
    for (const attempt of [...tx.attempts].reverse()) {
      const receipt = await this.chain.provider.getTransactionReceipt(attempt.hash);
      if (receipt) {
        const head = await this.chain.provider.getBlockNumber();
        if (head - receipt.blockNumber < this.settings.confirmations) return; // mined; wait for its confirmations
        await this.#recordMined(tx, receipt);
        return;
      }
    }
    if (onChain > tx.nonce) {
      // The nonce was used by a transaction that is none of ours (the key used elsewhere): put the
      // claims back in the queue; the contract would not pay any of them twice.
      await this.#db.transaction().execute(async (trx) => {
        await trx
          .updateTable('relayer_transactions')
          .set({
            status: 'failed',
            error: 'its nonce was used by another transaction',
            updated_at: new Date(),
          })
          .where('relayer', '=', this.address.toLowerCase())
          .where('nonce', '=', tx.nonce)
          .execute();
        await trx
          .updateTable('sponsored_claims')
          .set({ status: 'queued', relayer: null, tx_nonce: null, updated_at: new Date() })
          .where('relayer', '=', this.address.toLowerCase())
          .where('tx_nonce', '=', tx.nonce)
          .execute();
      });
      this.log.error(
        { nonce: tx.nonce },
        'relayer: its nonce was used by a transaction it did not send; the claims are queued again. Is RELAYER_PRIVATE_KEY used elsewhere?',
      );
      return;
    }
    const latest = tx.attempts.at(-1)!;
    const known = await this.#request<{ blockNumber: string | null } | null>(
      'eth_getTransactionByHash',
      [latest.hash],
    );
    if (!known) {
      await this.#broadcast(latest.raw);
      return;
    }
    if (known.blockNumber) return; // mined since its receipt was looked for: the next pass records it
    if (Date.now() - new Date(latest.signedAt).getTime() >= this.settings.replaceAfterMs)
      await this.#replace(tx, latest);
  }

  async #replace(tx: PendingTx, latest: RelayerAttempt): Promise<void> {
    const parsed = Transaction.from(latest.raw);
    const quote = await this.fees.quote();
    const bump = (fee: bigint) => (fee * REPLACEMENT_BUMP_PERCENT + 99n) / 100n;
    const ceiling = this.settings.sponsor.maxFeePerGasWei;
    let maxFeePerGas = bump(BigInt(latest.maxFeePerGas));
    if (quote.maxFeePerGas > maxFeePerGas) maxFeePerGas = quote.maxFeePerGas;
    const maxPriorityFeePerGas = bump(BigInt(latest.maxPriorityFeePerGas));
    if (maxFeePerGas > ceiling || maxPriorityFeePerGas > maxFeePerGas) {
      // Once per waiting batch, not at every pass.
      if (this.#waitingAtCeiling !== tx.nonce) {
        this.#waitingAtCeiling = tx.nonce;
        this.log.warn(
          { nonce: tx.nonce, maxFeePerGas: maxFeePerGas.toString(), ceiling: ceiling.toString() },
          'relayer: a batch is waiting, and a higher fee would pass SPONSOR_MAX_FEE_GWEI; it waits for fees to fall',
        );
      }
      return;
    }
    const attempt = await this.#sign({
      to: parsed.to!,
      data: parsed.data,
      gasLimit: parsed.gasLimit,
      nonce: tx.nonce,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const attempts = [...tx.attempts, attempt];
    await this.#db
      .updateTable('relayer_transactions')
      .set({ attempts: JSON.stringify(attempts), updated_at: new Date() })
      .where('relayer', '=', this.address.toLowerCase())
      .where('nonce', '=', tx.nonce)
      .execute();
    tx.attempts = attempts;
    this.log.info(
      {
        nonce: tx.nonce,
        hash: attempt.hash,
        replaces: latest.hash,
        maxFeePerGas: maxFeePerGas.toString(),
      },
      'relayer: a batch not mined in time was sent again with a higher fee',
    );
    await this.#broadcast(attempt.raw);
  }

  async #recordMined(tx: PendingTx, receipt: TransactionReceipt): Promise<void> {
    const relayer = this.address.toLowerCase();
    const cost = receipt.gasUsed * (receipt.gasPrice ?? 0n);
    const paid = new Map<string, bigint>();
    const skipped = new Map<string, number>();
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== String(this.chain.distributor.target).toLowerCase())
        continue;
      const event = (() => {
        try {
          return this.chain.distributor.interface.parseLog(log);
        } catch {
          return null;
        }
      })();
      if (event?.name === 'Claimed')
        paid.set(String(event.args[0]).toLowerCase(), BigInt(event.args[1]));
      if (event?.name === 'ClaimSkipped')
        skipped.set(String(event.args[0]).toLowerCase(), Number(event.args[1]));
    }
    const claims = await this.#db
      .selectFrom('sponsored_claims')
      .select(['id', 'user_id', 'account'])
      .where('relayer', '=', relayer)
      .where('tx_nonce', '=', tx.nonce)
      .execute();
    // Each claim's share of the fee; the first ones take a wei more each, so the shares (what the
    // day's budget counts) add up to the fee paid.
    const count = BigInt(claims.length);
    const share = (i: number) =>
      count === 0n ? 0n : cost / count + (BigInt(i) < cost % count ? 1n : 0n);
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable('relayer_transactions')
        .set({
          status: receipt.status === 1 ? 'mined' : 'failed',
          mined_hash: receipt.hash,
          block_number: receipt.blockNumber,
          gas_used: Number(receipt.gasUsed),
          cost_wei: cost.toString(),
          error: receipt.status === 1 ? null : 'the batch transaction reverted',
          updated_at: new Date(),
        })
        .where('relayer', '=', relayer)
        .where('nonce', '=', tx.nonce)
        .execute();
      for (const [i, claim] of claims.entries()) {
        const confirmed =
          receipt.status === 1 &&
          (paid.has(claim.account) || skipped.get(claim.account) === NOTHING_TO_CLAIM);
        await trx
          .updateTable('sponsored_claims')
          .set({
            status: confirmed ? 'confirmed' : 'failed',
            reason: confirmed
              ? paid.has(claim.account)
                ? null
                : 'Already claimed.'
              : receipt.status === 1
                ? 'The claim was not accepted by the contract (its proof did not match the round).'
                : 'The claim transaction failed. Please try again.',
            spent_wei: share(i).toString(),
            updated_at: new Date(),
          })
          .where('id', '=', claim.id)
          .execute();
      }
      await notifyIn(
        trx,
        claims.map((c) => c.user_id),
      );
    });
    if (receipt.status !== 1)
      this.log.error(
        { nonce: tx.nonce, hash: receipt.hash },
        'relayer: a batch transaction reverted',
      );
    else
      this.log.info(
        {
          nonce: tx.nonce,
          hash: receipt.hash,
          paid: paid.size,
          skipped: skipped.size,
          gasUsed: receipt.gasUsed.toString(),
          costEth: formatEther(cost),
        },
        'relayer: batch mined',
      );
  }

  async #watchBalance(): Promise<void> {
    // At most once a minute: on a paid RPC provider every call counts.
    if (Date.now() - this.#balanceReadAt < BALANCE_READ_EVERY_MS) return;
    this.#balanceReadAt = Date.now();
    this.balanceWei = await this.chain.provider.getBalance(this.address);
    if (
      this.balanceWei < this.settings.lowBalanceWei &&
      Date.now() - this.#lowBalanceLoggedAt > LOW_BALANCE_LOG_EVERY_MS
    ) {
      this.#lowBalanceLoggedAt = Date.now();
      this.log.warn(
        {
          relayer: this.address,
          balanceEth: formatEther(this.balanceWei),
          lowBalanceEth: formatEther(this.settings.lowBalanceWei),
        },
        'relayer: its ETH is running low; top it up with `npm run ops -- fund-relayer --eth <amount>`',
      );
    }
  }

  async #notify(userIds: string[]): Promise<void> {
    if (userIds.length > 0) await notifyIn(this.#db, userIds);
  }
}

/** ClaimSkipped's reason for a claim with nothing left to pay (paid before). */
export const NOTHING_TO_CLAIM = 1;

async function notifyIn(db: Kysely<DB>, userIds: string[]): Promise<void> {
  await notifyMembers(db, userIds);
}
