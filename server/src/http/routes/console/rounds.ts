// The console's distribution rounds: the dry run of the next round as pages of a table (worked out
// once and kept for DRY_RUN_FRESH_MS, so paging through a million rows costs one computation),
// publishing in the background with its progress as server-sent events, and the history with what
// became of the latest rounds' REME (who claimed, who was claimed for, reminded, not claimed yet).
import { errorResponse } from '@crw/core';
import {
  COUNTED_ROUNDS,
  DRY_RUN_PAGE,
  dryRunQuery,
  dryRunRefreshResponse,
  dryRunResponse,
  publishStartedResponse,
  roundAlertsResponse,
  roundHistoryResponse,
  type DryRun,
  type RoundClaims,
  type RoundProgress,
} from '@crw/core/console';
import { getAddress } from 'ethers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../../app-error';
import { recentReports } from '../../../domain/distribution/round-reports';
import { alertText } from '../../../domain/distribution/round-watch';
import { safeBatch } from '../../../infra/chain/safe-batch';
import type { DB } from '../../../infra/db/schema';
import { entitlements, latestPublishedRound } from '../../../domain/distribution/entitlements';
import { publishOnce } from '../../../domain/distribution/publish-once';
import { openRound } from '../../../domain/distribution/rounds';
import { Snapshot } from '../../../lib/snapshot';
import type { AppServices } from '../../../services';
import { recordAudit } from '../../../domain/operators/audit';

const DRY_RUN_FRESH_MS = 30_000;
/** A round's claims are counted again at most this often (a round can hold a million members). */
const CLAIMS_FRESH_MS = 60_000;
const PROGRESS_EVERY_MS = 400;

interface DryRunRow {
  userId: string;
  address: string;
  previous: bigint;
  next: bigint;
  /** next − previous as a number: the sort key, worked out once per row. */
  gain: number;
}

interface ComputedDryRun {
  summary: Omit<DryRun, 'matching' | 'offset' | 'rows'>;
  /** Members whose entitlement grows, biggest gain first; and those of them new to the rounds. */
  changes: DryRunRow[];
  newMembers: DryRunRow[];
}

async function computeDryRun(db: Kysely<DB>): Promise<ComputedDryRun> {
  const previous = await latestPublishedRound(db);
  const members = await entitlements(db, previous);
  const changes = members
    .filter((m) => m.amount !== m.previous)
    .map((m) => ({
      userId: m.userId,
      address: m.address,
      previous: m.previous,
      next: m.amount,
      gain: Number(m.amount - m.previous),
    }));
  // A million rows: compare numbers, not BigInts made in the comparator.
  changes.sort((a, b) => b.gain - a.gain || (a.address < b.address ? -1 : 1));
  const newMembers = changes.filter((c) => c.previous === 0n);
  const open = await openRound(db);
  return {
    summary: {
      index: open?.round_index ?? previous + 1,
      members: members.length,
      total: members.reduce((sum, m) => sum + m.amount, 0n).toString(),
      changed: changes.length,
      newMembers: newMembers.length,
      openRound: open?.round_index ?? null,
      computedAt: new Date().toISOString(),
    },
    changes,
    newMembers,
  };
}

/**
 * What became of a round's REME, in one pass over its entries: each member claimed it themselves
 * (their wallet's claimed REME reached the round's amount, and no "claim for me" paid it), was
 * claimed for (the relayer sent and paid a claim for me of exactly the round's amount — a round
 * that gave them nothing more keeps the claim of the round before), or has not claimed yet (a claim
 * on its way included, until it is confirmed); and how many members were sent a reminder about it.
 */
async function countRoundClaims(db: Kysely<DB>, round: number): Promise<RoundClaims> {
  const { rows } = await sql<{
    themselves: number;
    for_them: number;
    not_claimed: number;
    reminded: number;
  }>`
    WITH entries AS (
      SELECT coalesce(w.claimed, 0) >= e.cumulative_amount AS claimed,
             EXISTS (SELECT 1 FROM sponsored_claims c
                      WHERE c.account = e.wallet_address
                        AND c.cumulative_amount = e.cumulative_amount
                        AND c.for_me AND c.status = 'confirmed' AND c.reason IS NULL) AS for_them
        FROM distribution_entries e
        LEFT JOIN chain_wallets w ON w.address = e.wallet_address
       WHERE e.round_index = ${round})
    SELECT count(*) FILTER (WHERE claimed AND NOT for_them)::int AS themselves,
           count(*) FILTER (WHERE for_them)::int AS for_them,
           count(*) FILTER (WHERE NOT claimed AND NOT for_them)::int AS not_claimed,
           (SELECT count(DISTINCT user_id)::int FROM claim_reminders
             WHERE round_index = ${round}) AS reminded
      FROM entries`.execute(db);
  const row = rows[0];
  return {
    claimedThemselves: Number(row?.themselves ?? 0),
    claimedForThem: Number(row?.for_them ?? 0),
    notClaimed: Number(row?.not_claimed ?? 0),
    reminded: Number(row?.reminded ?? 0),
    countedAt: new Date().toISOString(),
  };
}

async function storedRounds(db: Kysely<DB>) {
  return db
    .selectFrom('distribution_rounds')
    .select([
      'round_index',
      'status',
      'root',
      'total',
      'member_count',
      'tx_hash',
      'created_at',
      'published_at',
      'active_at',
    ])
    .orderBy('round_index', 'desc')
    .limit(100)
    .execute();
}

export const roundRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    // The last dry run is served while a newer one is worked out (stale-while-revalidate): only
    // the first request, or the first after a publish, waits for the computation.
    const dryRun = new Snapshot(() => computeDryRun(db), {
      maxAgeMs: DRY_RUN_FRESH_MS,
      retryMs: 0,
      onError: (error) => app.log.warn({ err: error }, 'dry run refresh failed'),
    });
    // Each counted round's claims, kept per round: one aggregate query a minute at most.
    const claims = new Map<number, Snapshot<RoundClaims>>();
    const claimsOf = (round: number) => {
      let snapshot = claims.get(round);
      if (!snapshot) {
        snapshot = new Snapshot(() => countRoundClaims(db, round), {
          maxAgeMs: CLAIMS_FRESH_MS,
          onError: (error) => app.log.warn({ err: error, round }, 'round claims count failed'),
        });
        claims.set(round, snapshot);
      }
      return snapshot.get();
    };
    const roundHistory = async () => {
      const rows = await storedRounds(db);
      const counted = rows
        .filter((r) => r.status === 'published')
        .slice(0, COUNTED_ROUNDS)
        .map((r) => r.round_index);
      for (const round of claims.keys()) if (!counted.includes(round)) claims.delete(round);
      const figures = new Map(
        await Promise.all(counted.map(async (round) => [round, await claimsOf(round)] as const)),
      );
      return rows.map((r) => ({
        index: r.round_index,
        status: r.status,
        root: r.root,
        total: String(r.total),
        members: r.member_count,
        txHash: r.tx_hash,
        createdAt: new Date(r.created_at).toISOString(),
        publishedAt: r.published_at ? new Date(r.published_at).toISOString() : null,
        activeAt: r.active_at ? new Date(r.active_at).toISOString() : null,
        claims: figures.get(r.round_index) ?? null,
      }));
    };
    app.addHook('onClose', async () => {
      await dryRun.settled();
      await Promise.all([...claims.values()].map((c) => c.settled()));
    });
    const currentDryRun = () => dryRun.get();
    /** An operator's Refresh: a dry run worked out now; presses while it runs share it. */
    let refreshing: Promise<ComputedDryRun> | undefined;
    const refreshDryRun = () => {
      if (!refreshing) {
        dryRun.invalidate();
        refreshing = dryRun.get().finally(() => (refreshing = undefined));
      }
      return refreshing;
    };
    /** Rows matching a filter, kept per dry run so paging through them costs a slice. */
    const filtered = new WeakMap<ComputedDryRun, Map<string, DryRunRow[]>>();
    // The publish this process runs; other processes' show through the stored round's status.
    let progress: RoundProgress = { phase: 'idle', index: null, txHash: null, error: null };
    let running = false;

    app.get(
      '/rounds/dry-run',
      {
        schema: {
          summary: 'The next round’s dry run: who gains how much, a page at a time',
          querystring: dryRunQuery,
          response: {
            200: dryRunResponse,
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
          },
        },
      },
      async (request) => {
        const run = await currentDryRun();
        const { offset, filter, q } = request.query;
        const prefix = q?.toLowerCase() ?? '';
        const base = filter === 'new' ? run.newMembers : run.changes;
        let byFilter = filtered.get(run);
        if (!byFilter) filtered.set(run, (byFilter = new Map()));
        const key = `${filter}:${prefix}`;
        let matching = prefix ? byFilter.get(key) : base;
        if (!matching) {
          matching = base.filter((c) => c.address.startsWith(prefix));
          if (byFilter.size > 50) byFilter.clear();
          byFilter.set(key, matching);
        }
        const { summary } = run;
        return {
          ...summary,
          matching: matching.length,
          offset,
          rows: matching.slice(offset, offset + DRY_RUN_PAGE).map((c) => ({
            userId: c.userId,
            address: getAddress(c.address),
            previous: c.previous.toString(),
            next: c.next.toString(),
          })),
        };
      },
    );

    app.post(
      '/rounds/dry-run/refresh',
      {
        schema: {
          summary: 'Work the next round’s dry run out again now (instead of within 30 s)',
          response: { 200: dryRunRefreshResponse, 401: errorResponse, 403: errorResponse },
        },
      },
      async () => ({ computedAt: (await refreshDryRun()).summary.computedAt }),
    );

    app.get(
      '/rounds',
      {
        schema: {
          summary:
            'The rounds stored so far, newest first (root, total, transaction), and who claimed the latest',
          response: { 200: roundHistoryResponse, 401: errorResponse, 403: errorResponse },
        },
      },
      async () => ({ rounds: await roundHistory() }),
    );

    app.get(
      '/rounds/alerts',
      {
        schema: {
          summary:
            "The guardian's view: alerts about the distributor (a round in review this server did not build, the treasury, the publisher's ETH) and what members said about their lines",
          response: { 200: roundAlertsResponse, 401: errorResponse, 403: errorResponse },
        },
      },
      async () => {
        const rows = await db
          .selectFrom('round_alerts')
          .selectAll()
          .orderBy(sql`resolved_at IS NULL`, 'desc')
          .orderBy('id', 'desc')
          .limit(50)
          .execute();
        return {
          distributor: String(services.chain.distributor.target),
          alerts: rows.map((r) => ({
            id: r.id,
            kind: r.kind,
            round: r.round_index,
            text: alertText(r.kind, r.round_index, r.detail),
            raisedAt: new Date(r.raised_at).toISOString(),
            txHash: r.tx_hash,
            resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
          })),
          reports: (await recentReports(db)).map((r) => ({
            id: r.id,
            round: r.round_index,
            email: r.email,
            message: r.message,
            at: new Date(r.created_at).toISOString(),
          })),
        };
      },
    );

    app.get(
      '/rounds/:index/cancel.json',
      {
        schema: {
          summary: "A guardian's cancel of round `index`, as a file for Safe's Transaction Builder",
          params: z.object({
            index: z.coerce
              .number()
              .int()
              .min(1)
              .max(2 ** 31 - 1),
          }),
          response: {
            // Safe's batch file (infra/chain/safe-batch.ts), passed through whole.
            200: z.looseObject({ version: z.literal('1.0'), chainId: z.string() }),
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
          },
        },
      },
      async (request, reply) => {
        const { index } = request.params;
        const batch = safeBatch(
          services.chain.chainId,
          '',
          `REME: cancel round ${index}`,
          `Cancels round ${index} on the RewardsDistributor ${String(services.chain.distributor.target)} while it is in review: it never pays, and what it drew goes back to the treasury. Sign with a guardian's Safe.`,
          [
            {
              contract: 'RewardsDistributor',
              to: String(services.chain.distributor.target),
              method: 'cancelRoot',
              args: [index],
            },
          ],
        );
        return reply
          .header('content-disposition', `attachment; filename="cancel-round-${index}.json"`)
          .send(batch);
      },
    );

    app.post(
      '/rounds/publish',
      {
        schema: {
          summary: 'Publish the next round (or finish an unfinished one) in the background',
          response: {
            202: publishStartedResponse,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
          },
        },
      },
      async (request, reply) => {
        // Checked and set with no await between: a second press in this process is refused here,
        // one in another process (or the CLI) by the publish lock inside publishOnce.
        if (running)
          throw new AppError(409, 'conflict', 'A distribution round is being published right now.');
        running = true;
        progress = { phase: 'preparing', index: null, txHash: null, error: null };
        const who = request.operator!;
        /** The outcome in the audit log; the publish goes on if the log cannot be written now. */
        const audit = (action: string, target: string | null, detail: Record<string, unknown>) =>
          recordAudit(db, request, who, action, target, detail).catch((error: unknown) =>
            request.log.error({ err: error, action }, 'audit entry not written'),
          );
        try {
          await recordAudit(db, request, who, 'round.publish-start', null);
        } catch (error) {
          running = false;
          progress = { phase: 'idle', index: null, txHash: null, error: null };
          throw error;
        }
        void (async () => {
          try {
            const result = await publishOnce(services, async (step) => {
              const open = await openRound(db);
              progress = {
                phase: step === 'broadcast' ? 'sent' : step,
                index: open?.round_index ?? progress.index,
                txHash: open?.tx_hash ?? null,
                error: null,
              };
            });
            request.log.info(
              { ...result, operatorId: who.operatorId },
              'distribution round (console)',
            );
            // As the CLI's publish is logged: the round, its total REME and its transaction.
            await audit('round.publish', String(result.index), { ...result });
            progress = {
              phase: 'published',
              index: result.index,
              txHash: result.txHash,
              error: null,
            };
          } catch (error) {
            const message = (error as Error).message;
            progress = { ...progress, phase: 'failed', error: message };
            request.log.warn(
              { err: error, index: progress.index, operatorId: who.operatorId },
              'distribution round failed (console)',
            );
            await audit(
              'round.publish-failed',
              progress.index === null ? null : String(progress.index),
              { error: message },
            );
          } finally {
            running = false;
            dryRun.invalidate();
          }
        })();
        return reply.status(202).send({ started: true as const });
      },
    );

    // Progress as server-sent events until the publish ends: this process's run step by step, or
    // a round another process left unfinished, read from the stored rounds.
    app.get(
      '/rounds/progress',
      { schema: { summary: 'A round’s publishing progress (server-sent events)' } },
      async (request, reply) => {
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        });
        let last = '';
        const tick = async () => {
          let now = progress;
          if (!running && now.phase !== 'published' && now.phase !== 'failed') {
            const open = await openRound(db);
            now = open
              ? {
                  phase: open.status as RoundProgress['phase'],
                  index: open.round_index,
                  txHash: open.tx_hash,
                  error: null,
                }
              : { phase: 'idle', index: null, txHash: null, error: null };
          }
          const text = JSON.stringify(now);
          if (text !== last && !res.writableEnded) res.write(`event: progress\ndata: ${text}\n\n`);
          last = text;
          return running;
        };
        const timer = setInterval(() => {
          tick().then(
            (still) => {
              if (!still) {
                clearInterval(timer);
                if (!res.writableEnded) res.end();
              }
            },
            () => undefined,
          );
        }, PROGRESS_EVERY_MS);
        request.raw.once('close', () => clearInterval(timer));
        await tick();
      },
    );
  };
