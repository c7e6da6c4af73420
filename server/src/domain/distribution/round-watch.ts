// The watchful server (issue 28; docs/operations.md#alerts): in the process that follows the chain,
// after each pass, it tells the operators of what should not happen — a round proposed on chain
// that this server did not build (raised by the follower as it reads it), REME leaving the treasury
// other than to the distributor, the treasury's approval changing outside a round, and the
// publisher's ETH running low. Each alert is a row of round_alerts (listed in the console and
// counted in /metrics), logged as an error and mailed to every operator, once.
import { formatReme } from '@crw/core';
import { formatEther, parseEther } from 'ethers';
import { sql, type Kysely } from 'kysely';
import type { Chain } from '../../infra/chain/chain';
import type { DB, RoundAlertKind } from '../../infra/db/schema';
import { enqueueMail } from '../../infra/mail/outbox';
import type { Log } from '../../logging';

/** How often the chain itself is read (the publisher's ETH, the treasury's approval). */
const CHAIN_CHECK_MS = 10 * 60 * 1000;

export interface RoundWatchSettings {
  publisherLowEth: string;
  publicUrl: string;
  now?: () => number;
}

/** What each alert says, in the log, the mail and the console. */
export function alertText(kind: RoundAlertKind, round: number | null, d: Record<string, string>) {
  switch (kind) {
    case 'foreign_root':
      return `Round ${round} was proposed on chain with a root this server did not build (${d.root}, ${formatReme(d.total ?? '0')} REME in total). It pays from ${d.activeAt} unless a guardian cancels it: cancelRoot(${round}) on the distributor.`;
    case 'treasury_transfer':
      return `${formatReme(d.amount ?? '0')} REME left the treasury ${d.treasury} for ${d.to}, outside any round.`;
    case 'treasury_allowance':
      return `The treasury's approval of the distributor changed outside a round: ${formatReme(d.before ?? '0')} → ${formatReme(d.after ?? '0')} REME.`;
    case 'publisher_eth_low':
      return `The publisher ${d.publisher} has ${d.balance} ETH, below ${d.threshold}: it may not be able to propose the next round.`;
  }
}

export class RoundWatch {
  #running: Promise<void> | undefined;
  #checkedChainAt = 0;
  #treasury: string | undefined;
  #allowance: { value: bigint; block: number } | undefined;
  #transfersFrom = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly chain: Chain,
    private readonly log: Log,
    private readonly settings: RoundWatchSettings,
  ) {}

  /** After each pass of the chain follower. */
  afterIndexed(): void {
    this.#running ??= this.#pass()
      .catch((error: unknown) => this.log.warn({ err: error }, 'round watch: pass failed'))
      .finally(() => (this.#running = undefined));
  }

  async settled(): Promise<void> {
    await this.#running;
  }

  async #pass(): Promise<void> {
    const now = (this.settings.now ?? Date.now)();
    this.#treasury ??= String(await this.chain.distributor.getFunction('treasury')()).toLowerCase();
    await this.#treasuryTransfers();
    if (now - this.#checkedChainAt >= CHAIN_CHECK_MS) {
      this.#checkedChainAt = now;
      await this.#publisherEth();
      await this.#approval();
    }
    await this.#notify();
  }

  /** REME sent from the treasury to anyone but the distributor (a round's funding goes there). */
  async #treasuryTransfers(): Promise<void> {
    const distributor = String(this.chain.distributor.target).toLowerCase();
    const rows = await this.db
      .selectFrom('chain_events')
      .select(['block_number', 'tx_hash', 'to_address', 'amount'])
      .where('kind', '=', 'transfer')
      .where('from_address', '=', this.#treasury!)
      .where('to_address', '<>', distributor)
      .where('block_number', '>', this.#transfersFrom)
      .orderBy('block_number')
      .limit(100)
      .execute();
    for (const row of rows) {
      await this.#raise('treasury_transfer', null, row.block_number, row.tx_hash, {
        treasury: this.#treasury!,
        to: row.to_address ?? '',
        amount: String(row.amount),
      });
      this.#transfersFrom = Math.max(this.#transfersFrom, row.block_number);
    }
  }

  async #publisherEth(): Promise<void> {
    const publisher = this.chain.operator.address;
    const balance = await this.chain.provider.getBalance(publisher);
    const threshold = parseEther(this.settings.publisherLowEth);
    if (balance >= threshold) {
      await this.db
        .updateTable('round_alerts')
        .set({ resolved_at: new Date() })
        .where('kind', '=', 'publisher_eth_low')
        .where('resolved_at', 'is', null)
        .execute();
      return;
    }
    const open = await this.db
      .selectFrom('round_alerts')
      .select('id')
      .where('kind', '=', 'publisher_eth_low')
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (!open)
      await this.#raise('publisher_eth_low', null, null, null, {
        publisher,
        balance: formatEther(balance),
        threshold: this.settings.publisherLowEth,
      });
  }

  /** The treasury's approval read again; a change with no round proposed or cancelled since the
   * last read is an alert (a round's funding spends it, a cancel does not give it back). */
  async #approval(): Promise<void> {
    const block = await this.chain.provider.getBlockNumber();
    const value = (await this.chain.token.getFunction('allowance')(
      this.#treasury!,
      this.chain.distributor.target,
    )) as bigint;
    const before = this.#allowance;
    this.#allowance = { value, block };
    if (!before || before.value === value) return;
    const rounds = await this.db
      .selectFrom('chain_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('kind', 'in', ['root_proposed', 'root_cancelled'])
      .where('block_number', '>', before.block)
      .where('block_number', '<=', block)
      .executeTakeFirstOrThrow();
    if (Number(rounds.n) > 0) return;
    await this.#raise('treasury_allowance', null, block, null, {
      before: before.value.toString(),
      after: value.toString(),
    });
  }

  async #raise(
    kind: RoundAlertKind,
    round: number | null,
    block: number | null,
    txHash: string | null,
    detail: Record<string, string>,
  ): Promise<void> {
    await this.db
      .insertInto('round_alerts')
      .values({
        kind,
        round_index: round,
        detail: JSON.stringify(detail),
        block_number: block,
        tx_hash: txHash,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Each alert not told yet: an error in the log and a mail to every operator, in one transaction. */
  async #notify(): Promise<void> {
    const alerts = await this.db
      .selectFrom('round_alerts')
      .select(['id', 'kind', 'round_index', 'detail', 'block_number', 'tx_hash'])
      .where('notified_at', 'is', null)
      .orderBy('id')
      .execute();
    if (alerts.length === 0) return;
    const operators = await this.db
      .selectFrom('operators')
      .innerJoin('profiles', 'profiles.id', 'operators.user_id')
      .select('profiles.email')
      .execute();
    for (const alert of alerts) {
      const text = alertText(alert.kind, alert.round_index, alert.detail);
      this.log.error(
        {
          alert: alert.kind,
          round: alert.round_index,
          block: alert.block_number,
          tx: alert.tx_hash,
        },
        `distributor alert: ${text}`,
      );
      await this.db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('round_alerts')
          .set({ notified_at: sql`now()` })
          .where('id', '=', alert.id)
          .where('notified_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!claimed) return;
        for (const { email } of operators)
          await enqueueMail(trx, {
            to: email,
            subject: `REME distributor alert: ${alert.kind === 'foreign_root' ? `round ${alert.round_index} was not built by this server` : alert.kind.replaceAll('_', ' ')}`,
            text: `${text}\n\nWhat to do: ${this.settings.publicUrl}/operator/rounds (the guardian's view), and docs/operations.md#alerts.`,
          });
      });
    }
  }
}
