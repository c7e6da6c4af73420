// What a restore refuses, before it touches anything (docs/operations.md#backups): a changed,
// damaged or foreign archive, a wrong or missing passphrase, a newer schema, another kind of
// database, another chain or other contracts, and a DATA_DIR that already holds a database.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../config';
import {
  encryptArchive,
  openArchive,
  packArchive,
  type BackupRefused,
} from '../../infra/backup/archive';
import { migrationsDir } from '../../infra/db/migrate';
import { restoreBackup, type BackupFacts } from './backup';

const latest = readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.sql'))
  .sort()
  .at(-1)!;

const facts = (over: Partial<BackupFacts> = {}): BackupFacts => ({
  version: '0.1.0',
  database: 'pglite',
  migration: latest,
  chain: {
    embedded: true,
    chainId: 31337,
    token: '0x1111111111111111111111111111111111111111',
    distributor: '0x2222222222222222222222222222222222222222',
    block: 12,
  },
  members: 2,
  round: 1,
  keysInEnvironment: [],
  ...over,
});

const files = [
  { name: 'database/pglite.tar', data: Buffer.from('not really a database') },
  { name: 'keys/auth-secret', data: Buffer.from('SECRET-ONE') },
];

function config(over: Partial<Config> = {}): Config {
  const parsed = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-restore-')) });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return { ...parsed.config, ...over };
}

async function refusal(promise: Promise<unknown>): Promise<BackupRefused> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'refused').toBeInstanceOf(Error);
  return error as BackupRefused;
}

describe('opening a backup archive', () => {
  it('gives back the manifest and every file it lists', async () => {
    const { manifest, files: opened } = await openArchive<BackupFacts>(
      await packArchive(facts(), files),
    );
    expect(manifest.facts).toEqual(facts());
    expect(manifest.files.map((f) => f.name)).toEqual(files.map((f) => f.name));
    expect(opened.get('keys/auth-secret')!.toString()).toBe('SECRET-ONE');
  });

  it('refuses a file changed after the backup was made, an extra file, and what is no backup', async () => {
    const tar = gunzipSync(await packArchive(facts(), files));
    const changed = gzipSync(
      Buffer.from(tar.toString('latin1').replace('SECRET-ONE', 'SECRET-TWO'), 'latin1'),
    );
    const changedRefusal = await refusal(openArchive(changed));
    expect(changedRefusal.reason).toBe('checksum');
    expect(changedRefusal.message).toContain(
      'keys/auth-secret in this backup does not match its checksum',
    );

    const withExtra = await packArchive(facts(), files);
    const { manifest } = await openArchive<BackupFacts>(withExtra);
    // The same manifest around one more file than it lists.
    const { default: tarStream } = await import('tar-stream');
    const pack = tarStream.pack();
    for (const [name, data] of [
      ['manifest.json', Buffer.from(JSON.stringify(manifest))],
      ...files.map((f) => [f.name, f.data] as const),
      ['keys/operator-key', Buffer.from('planted')],
    ] as const)
      pack.entry({ name }, data);
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    const extra = await refusal(openArchive(gzipSync(Buffer.concat(chunks))));
    expect(extra.reason).toBe('checksum');
    expect(extra.message).toContain('keys/operator-key');

    const junk = await refusal(openArchive(Buffer.from('hello, not an archive')));
    expect(junk.reason).toBe('not_a_backup');

    // A tar whose manifest is not JSON.
    const broken = tarStream.pack();
    broken.entry({ name: 'manifest.json' }, Buffer.from('{ not json'));
    broken.finalize();
    const brokenChunks: Buffer[] = [];
    for await (const chunk of broken) brokenChunks.push(chunk as Buffer);
    const unreadable = await refusal(openArchive(gzipSync(Buffer.concat(brokenChunks))));
    expect(unreadable.reason).toBe('not_a_backup');
  });

  it('opens an encrypted one only with its passphrase, and refuses one changed in transit', async () => {
    const sealed = await encryptArchive(
      await packArchive(facts(), files),
      'a long passphrase here',
    );
    expect((await refusal(openArchive(sealed))).message).toContain('This backup is encrypted');
    expect((await refusal(openArchive(sealed, 'another passphrase!'))).reason).toBe('passphrase');
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 20]! ^= 1;
    expect((await refusal(openArchive(flipped, 'a long passphrase here'))).reason).toBe(
      'passphrase',
    );
    const { manifest } = await openArchive<BackupFacts>(sealed, 'a long passphrase here');
    expect(manifest.facts.members).toBe(2);
  }, 60_000); // each passphrase costs age's scrypt about a second: what makes guessing slow
});

describe('restoring a backup refuses what would not fit', () => {
  it('a schema this code does not know (made by a newer version)', async () => {
    const archive = await packArchive(
      facts({ migration: '9999_from_the_future.sql', version: '9.0.0' }),
      files,
    );
    const refused = await refusal(restoreBackup(archive, config()));
    expect(refused.reason).toBe('newer_schema');
    expect(refused.message).toContain('Install version 9.0.0 or later');
  });

  it('another kind of database', async () => {
    const archive = await packArchive(facts({ database: 'postgres' }), files);
    const refused = await refusal(restoreBackup(archive, config()));
    expect(refused.reason).toBe('other_database');
    expect(refused.message).toContain('set DATABASE_URL');
  });

  it('another chain: the embedded one where CHAIN_RPC_URL is set, other contracts, another chain id', async () => {
    const remote = {
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
      DISTRIBUTOR_ADDRESS: '0x2222222222222222222222222222222222222222',
    };
    const embedded = await refusal(
      restoreBackup(await packArchive(facts(), files), config(remote)),
    );
    expect(embedded.reason).toBe('other_chain');
    expect(embedded.message).toContain('Restore it without CHAIN_RPC_URL');

    const followed = facts({ chain: { ...facts().chain!, embedded: false, chainId: 11155111 } });
    const archive = await packArchive(followed, files);
    const contracts = await refusal(
      restoreBackup(
        archive,
        config({ ...remote, DISTRIBUTOR_ADDRESS: '0x3333333333333333333333333333333333333333' }),
      ),
    );
    expect(contracts.reason).toBe('other_chain');
    expect(contracts.message).toContain('other contracts');

    const chainId = await refusal(
      restoreBackup(archive, config(remote), { chainId: async () => 1 }),
    );
    expect(chainId.reason).toBe('other_chain');
    expect(chainId.message).toContain('answers for chain 1');
  });

  it('a DATA_DIR that already holds a database or keys', async () => {
    const target = config();
    writeFileSync(path.join(target.dataDir, 'PG_VERSION'), '17\n');
    const refused = await refusal(restoreBackup(await packArchive(facts(), files), target));
    expect(refused.reason).toBe('not_empty');
    expect(refused.message).toContain('PG_VERSION');
  });
});
