// GET /metrics (Prometheus text format, operator key): requests by route and the process itself
// (http/plugins/request-metrics.ts), the mail outbox, the distribution rounds and their funding, the
// chain node and follower, and the sponsored-claims relayer. Gauges read the database only when
// Prometheus scrapes, so the metrics cost nothing between scrapes.
import type { FastifyInstance } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { sql } from 'kysely';
import { requireOperator } from '../../guards/bearer';
import { figuresAsOf } from '../../../domain/distribution/claims';
import { lastFunding } from '../../../domain/distribution/funding';
import { spentToday } from '../../../domain/sponsorship/sponsor';
import { readFollowerState } from '../../../domain/indexer/follower-store';
import type { AppServices } from '../../../services';

export function registerMetrics(
  app: FastifyInstance,
  registry: Registry,
  services: Pick<
    AppServices,
    'database' | 'worker' | 'operatorKey' | 'chain' | 'follower' | 'relayer'
  >,
): void {
  const { database, worker, operatorKey, chain, follower } = services;
  new Gauge({
    name: 'crw_mail_outbox',
    help: 'Mails in the outbox by status (pending includes those being retried)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await database.db
        .selectFrom('mail_outbox')
        .select(['status', sql<number>`count(*)::int`.as('n')])
        .groupBy('status')
        .execute();
      this.reset();
      for (const status of ['pending', 'sent'])
        this.set({ status }, rows.find((r) => r.status === status)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'crw_mail_outbox_oldest_pending_seconds',
    help: 'Age of the oldest mail still waiting to be delivered (0 when none)',
    registers: [registry],
    async collect() {
      const row = await sql<{ age: number | null }>`
        SELECT extract(epoch FROM now() - min(created_at))::float8 AS age FROM mail_outbox WHERE status = 'pending'`.execute(
        database.db,
      );
      this.set(row.rows[0]?.age ?? 0);
    },
  });
  new Gauge({
    name: 'crw_mail_delivery_failing',
    help: '1 when the last delivery attempt of this process failed',
    registers: [registry],
    collect() {
      this.set(worker.delivery.status === 'failing' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'crw_distribution_rounds',
    help: 'Distribution rounds by status (prepared and sent are being published)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await database.db
        .selectFrom('distribution_rounds')
        .select(['status', sql<number>`count(*)::int`.as('n')])
        .groupBy('status')
        .execute();
      this.reset();
      for (const status of ['prepared', 'sent', 'in_review', 'published', 'cancelled'])
        this.set({ status }, rows.find((r) => r.status === status)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'crw_round_alerts_open',
    help: 'Distributor alerts not resolved, by kind (foreign_root: a round in review this server did not build): alert above 0',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await database.db
        .selectFrom('round_alerts')
        .select(['kind', sql<number>`count(*)::int`.as('n')])
        .where('resolved_at', 'is', null)
        .groupBy('kind')
        .execute();
      this.reset();
      for (const kind of [
        'foreign_root',
        'treasury_transfer',
        'treasury_allowance',
        'publisher_eth_low',
      ])
        this.set({ kind }, rows.find((r) => r.kind === kind)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'crw_distribution_latest_published_round',
    help: 'The index of the latest published round (0 before the first)',
    registers: [registry],
    async collect() {
      const row = await database.db
        .selectFrom('distribution_rounds')
        .select((eb) => eb.fn.max('round_index').as('index'))
        .where('status', '=', 'published')
        .executeTakeFirst();
      this.set(Number(row?.index ?? 0));
    },
  });

  new Gauge({
    name: 'crw_chain_node_calls_total',
    help: 'JSON-RPC calls this process made to the chain node, by method (failed ones included); a counter',
    labelNames: ['method'] as const,
    registers: [registry],
    collect() {
      for (const [method, n] of Object.entries(chain.node.calls.byMethod)) this.set({ method }, n);
    },
  });
  new Gauge({
    name: 'crw_chain_follower_leading',
    help: '1 when this process follows the chain (one process leads)',
    registers: [registry],
    collect() {
      this.set(follower.leading ? 1 : 0);
    },
  });
  // One read of the follower's state per scrape sets both of its gauges.
  const age = new Gauge({
    name: 'crw_chain_follower_seconds_since_success',
    help: "Seconds since the follower last reached the node and indexed (the age of members' chain figures)",
    registers: [],
  });
  new Gauge({
    name: 'crw_chain_follower_lag_blocks',
    help: 'Blocks between the node head the follower last saw and the last block it indexed',
    registers: [registry],
    async collect() {
      const state = await readFollowerState(database.db);
      const processed = state?.block_number ?? null;
      this.set(state?.head_number == null || processed == null ? 0 : state.head_number - processed);
      age.set(figuresAsOf(state).ageSeconds ?? -1);
    },
  });
  registry.registerMetric(age);

  // The funding invariant: one read of the last check per scrape sets its four gauges.
  const fundingGauge = (name: string, help: string) =>
    new Gauge({ name, help, registers: [] as Registry[] });
  const balance = fundingGauge(
    'crw_distributor_balance_wei',
    'REME the distributor held at the last funding check, in wei (-1 before the first)',
  );
  const owed = fundingGauge(
    'crw_distributor_owed_wei',
    'REME the current round still owes its members at the last funding check, in wei (-1 before the first)',
  );
  const checkedRound = fundingGauge(
    'crw_distributor_funding_round',
    'The round the last funding check was made for',
  );
  new Gauge({
    name: 'crw_distributor_shortfall_wei',
    help: 'What the distributor lacks to pay its round in full (owed minus held, 0 when funded): alert above 0',
    registers: [registry],
    async collect() {
      const status = await lastFunding(database.db);
      this.set(status ? Number(status.shortfall) : 0);
      balance.set(status ? Number(status.balance) : -1);
      owed.set(status ? Number(status.owed) : -1);
      checkedRound.set(status?.round ?? 0);
    },
  });
  for (const gauge of [balance, owed, checkedRound]) registry.registerMetric(gauge);

  // The sponsored-claims relayer: its queue, its ETH, what it spent today.
  new Gauge({
    name: 'crw_sponsored_claims',
    help: 'Sponsored claims by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const rows = await database.db
        .selectFrom('sponsored_claims')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      for (const status of ['queued', 'sent', 'confirmed', 'failed'])
        this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
    },
  });
  new Gauge({
    name: 'crw_relayer_spent_today_wei',
    help: 'Fees the relayer spent or holds for queued claims today (UTC), in wei',
    registers: [registry],
    async collect() {
      this.set(Number(await spentToday(database.db)));
    },
  });
  new Gauge({
    name: 'crw_relayer_balance_wei',
    help: 'The relayer wallet’s ETH as last read by the leading relayer (-1 unknown)',
    registers: [registry],
    collect() {
      this.set(
        services.relayer?.balanceWei === null || services.relayer === undefined
          ? -1
          : Number(services.relayer.balanceWei),
      );
    },
  });

  app.get(
    '/metrics',
    { schema: { hide: true }, onRequest: async (request) => requireOperator(request, operatorKey) },
    async (_request, reply) =>
      reply
        .type(registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics()),
  );
}
