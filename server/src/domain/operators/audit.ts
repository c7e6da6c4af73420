// The operator audit log (operator_audit, append-only: its triggers refuse UPDATE, DELETE and
// TRUNCATE, and the server's role may only add and read rows): who did what to whom, when, from
// which address, under which idempotency key. Operators and members are kept by id, never by
// e-mail (the database writes any address as "[e-mail]", migration 0022), so a deleted member
// leaves no address here; an operator's e-mail is read from their profile while it exists.
import { AUDIT_PAGE_SIZE, type AuditEntry } from '@crw/core/console';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface AuditActor {
  actor: 'console' | 'api-key';
  operatorId: string | null;
  operatorEmail: string | null;
}

export const API_KEY_ACTOR: AuditActor = {
  actor: 'api-key',
  operatorId: null,
  operatorEmail: null,
};

/** A lone UTF-16 surrogate (which JSON writes as an escape that jsonb refuses) becomes U+FFFD,
 * as it does in a text column. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (_key: string, value: unknown) =>
  typeof value === 'string' ? value.replace(LONE_SURROGATE, '\ufffd') : value;

/** Records one operator action, with the request's address, id and Idempotency-Key header. */
export async function recordAudit(
  db: Kysely<DB>,
  request: FastifyRequest,
  who: AuditActor,
  action: string,
  target: string | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const key = request.headers['idempotency-key'];
  await db
    .insertInto('operator_audit')
    .values({
      actor: who.actor,
      operator_id: who.operatorId,
      action,
      target,
      detail: JSON.stringify(detail, wellFormed),
      ip: request.ip,
      idempotency_key: typeof key === 'string' ? key.slice(0, 100) : null,
      request_id: request.id,
    })
    .execute();
}

const entryOf = (row: {
  id: number | string;
  at: Date;
  actor: 'console' | 'api-key';
  operator_email: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
  idempotency_key: string | null;
}): AuditEntry => ({
  id: Number(row.id),
  at: new Date(row.at).toISOString(),
  actor: row.actor,
  operatorEmail: row.operator_email,
  action: row.action,
  target: row.target,
  detail: row.detail,
  ip: row.ip,
  idempotencyKey: row.idempotency_key,
});

/** The log's rows with each operator's e-mail as it is now (null once they deleted the account). */
const auditRows = (db: Kysely<DB>) =>
  db
    .selectFrom('operator_audit as a')
    .leftJoin('profiles as p', 'p.id', 'a.operator_id')
    .select([
      'a.id',
      'a.at',
      'a.actor',
      'p.email as operator_email',
      'a.action',
      'a.target',
      'a.detail',
      'a.ip',
      'a.idempotency_key',
    ]);

/** A page of the log, newest first, before the entry `before` when given. */
export async function auditPage(db: Kysely<DB>, before?: number) {
  let query = auditRows(db)
    .orderBy('a.id', 'desc')
    .limit(AUDIT_PAGE_SIZE + 1);
  if (before !== undefined) query = query.where('a.id', '<', before);
  const rows = await query.execute();
  const entries = rows.slice(0, AUDIT_PAGE_SIZE).map(entryOf);
  return {
    entries,
    nextBefore: rows.length > AUDIT_PAGE_SIZE ? entries[entries.length - 1]!.id : null,
  };
}

const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  // A cell a spreadsheet would run as a formula is kept as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The whole log as CSV, oldest first, read in pages so a long log never sits in memory. */
export async function* auditCsv(db: Kysely<DB>): AsyncGenerator<string> {
  yield 'id,at,actor,operator,action,target,detail,ip,idempotency_key\n';
  let after = 0;
  for (;;) {
    const rows = await auditRows(db)
      .where('a.id', '>', after)
      .orderBy('a.id')
      .limit(1000)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const e = entryOf(row);
      yield (
        [
          e.id,
          e.at,
          e.actor,
          e.operatorEmail,
          e.action,
          e.target,
          JSON.stringify(e.detail),
          e.ip,
          e.idempotencyKey,
        ]
          .map(csvCell)
          .join(',') + '\n'
      );
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}
