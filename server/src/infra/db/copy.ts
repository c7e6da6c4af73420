// Bulk loads through COPY … FROM STDIN on both databases, from any Kysely handle (a transaction
// included): copyRows() sends the COPY statement with the rows as its one parameter, and each
// driver hands them over its own way: pg through pg-copy-streams (copyingClient below, the pool's
// client class), PGlite as the blob its COPY reads from '/dev/blob' (pglite-dialect.ts). A round's
// million leaves load this way in about a third of the time of batched INSERT … SELECT unnest(…)
// (docs/decisions/0024-million-member-round.md).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DB } from './schema';

/** The rows of a COPY in its text format: chunks of whole lines, each ending in a newline. */
export class CopyRows {
  constructor(readonly chunks: Iterable<string>) {}
}

/** A field of COPY's text format: backslash, tab, newline and carriage return escaped. */
export function copyField(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
      )
    : value;
}

/** COPY `table` (`columns`) FROM STDIN with the rows' text; resolves to the rows loaded. */
export async function copyRows(
  db: Kysely<DB>,
  table: string,
  columns: readonly string[],
  rows: CopyRows,
): Promise<number> {
  const result = await db.executeQuery<CopyResult>(
    CompiledQuery.raw(`COPY ${table} (${columns.join(', ')}) FROM STDIN`, [rows]),
  );
  return result.rows[0]?.copied ?? 0;
}

/** What either driver answers to a COPY: one row with the number of rows loaded. */
export interface CopyResult {
  copied: number;
}

/** A COPY statement copyRows() sent, or undefined for any other query. */
export function copyOf(sql: string, parameters: readonly unknown[]): CopyRows | undefined {
  return parameters.length === 1 && parameters[0] instanceof CopyRows && sql.startsWith('COPY ')
    ? parameters[0]
    : undefined;
}

type Query = (...args: unknown[]) => unknown;

/** pg's client, with copyRows()'s statements streamed through pg-copy-streams. */
export class CopyingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as Query;
    this.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const rows = typeof text === 'string' && Array.isArray(values) && copyOf(text, values);
      if (!rows) return query(...args);
      const stream = query(copyFrom(text as string)) as ReturnType<typeof copyFrom>;
      return pipeline(Readable.from(rows.chunks), stream).then(() => ({
        command: 'COPY',
        rowCount: stream.rowCount,
        rows: [{ copied: stream.rowCount } satisfies CopyResult],
      }));
    }) as typeof this.query;
  }
}
