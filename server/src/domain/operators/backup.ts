// Backups and restores (docs/operations.md#backups). On the embedded default the running server
// makes the archive — a copy of its PGlite database taken between two transactions (no stop) and
// the key files of DATA_DIR — because no second process may open that database. On PostgreSQL the
// archive wraps a `pg_dump` in its custom format; the keys production keeps in its environment are
// named in the manifest, never copied. A restore goes into an empty DATA_DIR or database and
// refuses what would not fit: a newer schema, another chain or other contracts, another kind of
// database; the server migrates an older one forward when it starts.
import { VAPID_KEY_FILE } from '../../infra/push/vapid';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config';
import { makePrivate } from '../../data-dir';
import {
  BackupRefused,
  openArchive,
  packArchive,
  type ArchiveFile,
} from '../../infra/backup/archive';
import { dumpPgliteWith, type Database } from '../../infra/db/database';
import { migrationsDir } from '../../infra/db/migrate';
import type { DB } from '../../infra/db/schema';
import {
  CHAIN_FAUCET_KEY_FILE,
  CHAIN_OPERATOR_KEY_FILE,
  CHAIN_RELAYER_KEY_FILE,
} from '../../infra/chain/embedded-keys';
import { COMMUNITY_APP_SECRET_FILE, OPERATOR_KEY_FILE } from '../../infra/identity/operator-key';
import { version } from '../../version';

const run = promisify(execFile);

/** The secrets the embedded default keeps in DATA_DIR, all in the archive. */
export const KEY_FILES = [
  'auth-secret',
  'signup-gate-key',
  OPERATOR_KEY_FILE,
  COMMUNITY_APP_SECRET_FILE,
  CHAIN_OPERATOR_KEY_FILE,
  CHAIN_FAUCET_KEY_FILE,
  CHAIN_RELAYER_KEY_FILE,
  // Without it a restored install would make a new pair and every device's push would be refused.
  VAPID_KEY_FILE,
] as const;

/** The secrets production gives in its environment: named in the manifest, never copied. */
const ENVIRONMENT_KEYS = [
  'AUTH_SECRET',
  'OPERATOR_API_KEY',
  'COMMUNITY_APP_CLIENT_SECRET',
  'OPERATOR_PRIVATE_KEY',
  'RELAYER_PRIVATE_KEY',
  'VAPID_PRIVATE_KEY',
] as const;

const PGLITE_DUMP = 'database/pglite.tar';
const POSTGRES_DUMP = 'database/postgres.dump';

export interface BackupFacts {
  version: string;
  database: 'pglite' | 'postgres';
  /** The last migration applied: a restore refuses a schema this code does not know. */
  migration: string;
  /** The chain the database follows (null before the follower's first pass). */
  chain: {
    embedded: boolean;
    chainId: number;
    token: string;
    distributor: string;
    /** The last block the follower had indexed: after a restore it reads on from here. */
    block: number;
  } | null;
  members: number;
  /** The latest published round (0 before the first). */
  round: number;
  keysInEnvironment: string[];
}

async function factsOf(
  db: Kysely<DB>,
  config: Config,
  kind: BackupFacts['database'],
): Promise<BackupFacts> {
  const [migration, chain, members, round] = await Promise.all([
    sql<{ name: string }>`SELECT max(name) AS name FROM schema_migrations`.execute(db),
    db.selectFrom('chain_follower_state').selectAll().executeTakeFirst(),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM profiles`.execute(db),
    sql<{
      n: number | null;
    }>`SELECT max(round_index)::int AS n FROM distribution_rounds WHERE status = 'published'`.execute(
      db,
    ),
  ]);
  return {
    version,
    database: kind,
    migration: migration.rows[0]!.name,
    chain: chain
      ? {
          embedded: !config.CHAIN_RPC_URL,
          chainId: Number(chain.chain_id),
          token: chain.token_address,
          distributor: chain.distributor_address,
          block: Number(chain.block_number),
        }
      : null,
    members: Number(members.rows[0]?.n ?? 0),
    round: Number(round.rows[0]?.n ?? 0),
    keysInEnvironment: ENVIRONMENT_KEYS.filter((key) => config[key] !== undefined),
  };
}

/** The embedded default's archive, made by the running server: its database between two
 * transactions and the key files of DATA_DIR. The facts (members, round, block) are read in the
 * same hold of the one session as the copy is made, so a member who signs up meanwhile is in both
 * or in neither. */
export async function backupPglite(database: Database, config: Config): Promise<Buffer> {
  const { dump, read: facts } = await dumpPgliteWith(database, (db) =>
    factsOf(db, config, 'pglite'),
  );
  const keys = await keyFiles(config.dataDir);
  return packArchive(facts, [
    { name: PGLITE_DUMP, data: Buffer.from(await dump.arrayBuffer()) },
    ...keys,
  ]);
}

/** PostgreSQL's archive: `pg_dump --format=custom` of `url` (a consistent snapshot while the
 * servers run) and any key files in DATA_DIR. The facts (members, round, block) are read in the
 * very snapshot the dump reads (exported from one open transaction, `pg_dump --snapshot`), so a
 * member who signs up meanwhile is in both or in neither. */
export async function backupPostgres(
  database: Database,
  url: string,
  config: Config,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'crw-backup-'));
  try {
    const file = path.join(dir, 'db.dump');
    const facts = await database.db.connection().execute(async (connection) => {
      await sql`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(connection);
      try {
        const snapshot = (
          await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(connection)
        ).rows[0]!.id;
        const read = await factsOf(connection, config, 'postgres');
        await run('pg_dump', [
          '--format=custom',
          '--no-owner',
          `--snapshot=${snapshot}`,
          `--file=${file}`,
          url,
        ]);
        return read;
      } finally {
        await sql`COMMIT`.execute(connection);
      }
    });
    const dump = await readFile(file);
    return packArchive(facts, [
      { name: POSTGRES_DUMP, data: dump },
      ...(await keyFiles(config.dataDir)),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function keyFiles(dataDir: string): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  for (const name of KEY_FILES) {
    const file = path.join(dataDir, name);
    if (existsSync(file)) files.push({ name: `keys/${name}`, data: await readFile(file) });
  }
  return files;
}

export interface RestoreReport {
  facts: BackupFacts;
  createdAt: string;
  /** Migrations this code has that the backup's database did not: applied at the next start. */
  migrationsToApply: string[];
  keysRestored: string[];
}

/** Restores `archive` into this configuration's empty DATA_DIR (embedded) or DATABASE_URL. */
export async function restoreBackup(
  archive: Buffer,
  config: Config,
  options: { passphrase?: string; chainId?: () => Promise<number> } = {},
): Promise<RestoreReport> {
  const { manifest, files } = await openArchive<BackupFacts>(archive, options.passphrase);
  const facts = manifest.facts;
  const known = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  if (!known.includes(facts.migration))
    throw new BackupRefused(
      'newer_schema',
      `This backup was made by a newer version (${facts.version}, schema ${facts.migration}), which ` +
        `this code (${version}) does not know. Install version ${facts.version} or later, then restore.`,
    );
  const target = config.DATABASE_URL ? 'postgres' : 'pglite';
  if (facts.database !== target)
    throw new BackupRefused(
      'other_database',
      facts.database === 'pglite'
        ? 'This backup is of the embedded database: restore it without DATABASE_URL set.'
        : 'This backup is of a PostgreSQL database: set DATABASE_URL to an empty database to restore it.',
    );
  await refuseOtherChain(facts, config, options.chainId);

  const keysRestored: string[] = [];
  if (target === 'pglite') {
    await refuseNonEmptyDataDir(config.dataDir);
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    const pglite = await PGlite.create({
      dataDir: config.dataDir,
      loadDataDir: new Blob([new Uint8Array(files.get(PGLITE_DUMP)!)]),
    });
    await pglite.close();
  } else {
    await refuseNonEmptyDatabase(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL!);
    const dir = await mkdtemp(path.join(tmpdir(), 'crw-restore-'));
    try {
      const file = path.join(dir, 'db.dump');
      await writeFile(file, files.get(POSTGRES_DUMP)!, { mode: 0o600 });
      await run('pg_restore', [
        '--no-owner',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL!}`,
        file,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  for (const [name, data] of files) {
    if (!name.startsWith('keys/')) continue;
    const key = name.slice('keys/'.length);
    if (!(KEY_FILES as readonly string[]).includes(key)) continue;
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    // The folder was checked empty of keys; PGlite's copy of DATA_DIR may have written them already.
    await writeFile(path.join(config.dataDir, key), data, { mode: 0o600 });
    keysRestored.push(key);
  }
  await makePrivate(config.dataDir);
  return {
    facts,
    createdAt: manifest.createdAt,
    migrationsToApply: known.filter((name) => name > facts.migration),
    keysRestored,
  };
}

async function refuseOtherChain(
  facts: BackupFacts,
  config: Config,
  chainId?: () => Promise<number>,
): Promise<void> {
  const chain = facts.chain;
  if (!chain) return;
  if (chain.embedded !== !config.CHAIN_RPC_URL)
    throw new BackupRefused(
      'other_chain',
      chain.embedded
        ? 'This backup follows the embedded chain (its journal is in the database), but CHAIN_RPC_URL is set here. Restore it without CHAIN_RPC_URL.'
        : `This backup follows chain ${chain.chainId} through CHAIN_RPC_URL; set CHAIN_RPC_URL and the contract addresses it used here first.`,
    );
  if (chain.embedded) return;
  const differs = (a: string | undefined, b: string) => !a || a.toLowerCase() !== b.toLowerCase();
  if (
    differs(config.TOKEN_ADDRESS, chain.token) ||
    differs(config.DISTRIBUTOR_ADDRESS, chain.distributor)
  )
    throw new BackupRefused(
      'other_chain',
      `This backup follows other contracts (token ${chain.token}, distributor ${chain.distributor}) ` +
        'than TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS here. Restore it with the settings it was made with.',
    );
  const here = chainId ? await chainId() : undefined;
  if (here !== undefined && here !== chain.chainId)
    throw new BackupRefused(
      'other_chain',
      `This backup is of chain ${chain.chainId}, but CHAIN_RPC_URL here answers for chain ${here}. ` +
        'Point CHAIN_RPC_URL at the chain the backup was made on.',
    );
}

async function refuseNonEmptyDataDir(dataDir: string): Promise<void> {
  const present = existsSync(dataDir) ? await readdir(dataDir) : [];
  const clash = present.filter(
    (name) => name === 'PG_VERSION' || (KEY_FILES as readonly string[]).includes(name),
  );
  if (clash.length > 0)
    throw new BackupRefused(
      'not_empty',
      `DATA_DIR (${dataDir}) already holds a database or keys (${clash.join(', ')}). A restore never ` +
        'overwrites them: move that folder away (or back it up first), then restore into an empty one.',
    );
}

async function refuseNonEmptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    if (Number(rows[0]?.n ?? 0) > 0)
      throw new BackupRefused(
        'not_empty',
        'The database at DATABASE_URL already has tables. A restore never overwrites a database: ' +
          'create an empty one (createdb), point DATABASE_URL at it, then restore.',
      );
  } finally {
    await client.end();
  }
}
