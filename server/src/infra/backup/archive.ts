// A backup archive (docs/operations.md#backups): a gzipped tar holding manifest.json first, then the
// files it lists, each with its size and SHA-256 — optionally encrypted as a whole with a
// passphrase (age, scrypt-derived key, authenticated: a wrong passphrase or a changed byte is
// refused). Without a passphrase the checksums catch damage, not a deliberate edit of the manifest
// and the file together.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Decrypter, Encrypter } from 'age-encryption';
import tar from 'tar-stream';

export const BACKUP_FORMAT = 'community-rewards-backup/1';
const AGE_HEADER = 'age-encryption.org/v1\n';

export interface ArchiveFile {
  name: string;
  data: Buffer;
}

export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
}

/** What the archive says of itself; `facts` is what the backup's maker adds (version, schema…). */
export interface ArchiveManifest<Facts> {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  facts: Facts;
  files: ManifestFile[];
}

export type RefusalReason =
  | 'not_a_backup'
  | 'checksum'
  | 'passphrase'
  | 'newer_schema'
  | 'other_chain'
  | 'other_database'
  | 'not_empty';

/** A backup that must not be restored here, with what to do about it. */
export class BackupRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function packArchive<Facts>(
  facts: Facts,
  files: ArchiveFile[],
  createdAt = new Date(),
): Promise<Buffer> {
  const manifest: ArchiveManifest<Facts> = {
    format: BACKUP_FORMAT,
    createdAt: createdAt.toISOString(),
    facts,
    files: files.map((f) => ({ name: f.name, bytes: f.data.length, sha256: sha256(f.data) })),
  };
  const pack = tar.pack();
  const done = collect(pack);
  const entries = [
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest, null, 2)) },
    ...files,
  ];
  for (const entry of entries)
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: entry.name, mode: 0o600, mtime: createdAt }, entry.data, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  pack.finalize();
  return gzipSync(await done);
}

export const isEncrypted = (bytes: Buffer) =>
  bytes.subarray(0, AGE_HEADER.length).toString('latin1') === AGE_HEADER;

export async function encryptArchive(bytes: Buffer, passphrase: string): Promise<Buffer> {
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase);
  return Buffer.from(await encrypter.encrypt(bytes));
}

/** Opens an archive: decrypts it when it is encrypted, then checks every file against the
 * manifest. Refuses (BackupRefused) what is not a backup, a wrong or missing passphrase, and a
 * file that is missing, extra or does not match its checksum. */
export async function openArchive<Facts>(
  bytes: Buffer,
  passphrase?: string,
): Promise<{ manifest: ArchiveManifest<Facts>; files: Map<string, Buffer> }> {
  let plain = bytes;
  if (isEncrypted(bytes)) {
    if (!passphrase)
      throw new BackupRefused(
        'passphrase',
        'This backup is encrypted: give its passphrase (BACKUP_PASSPHRASE or --passphrase-file).',
      );
    const decrypter = new Decrypter();
    decrypter.addPassphrase(passphrase);
    try {
      plain = Buffer.from(await decrypter.decrypt(bytes));
    } catch {
      throw new BackupRefused(
        'passphrase',
        'The passphrase does not open this backup (or the encrypted file was changed). Check the ' +
          'passphrase you gave when it was made.',
      );
    }
  }
  let entries: Map<string, Buffer>;
  try {
    entries = await untar(gunzipSync(plain));
  } catch {
    throw new BackupRefused(
      'not_a_backup',
      'This file is not a backup archive, or it is damaged (it does not unpack). Use another copy.',
    );
  }
  const manifest = parseManifest<Facts>(entries.get('manifest.json'));
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.files))
    throw new BackupRefused(
      'not_a_backup',
      `This archive is not a ${BACKUP_FORMAT} backup (its manifest.json is missing or of another format).`,
    );
  entries.delete('manifest.json');
  for (const file of manifest.files) {
    const data = entries.get(file.name);
    if (!data || data.length !== file.bytes || sha256(data) !== file.sha256)
      throw new BackupRefused(
        'checksum',
        `${file.name} in this backup ${data ? 'does not match its checksum' : 'is missing'}: the ` +
          'archive was changed or damaged after it was made. Nothing was restored; use another backup.',
      );
  }
  const listed = new Set(manifest.files.map((f) => f.name));
  const extra = [...entries.keys()].filter((name) => !listed.has(name));
  if (extra.length > 0)
    throw new BackupRefused(
      'checksum',
      `This backup holds files its manifest does not list (${extra.join(', ')}): it was changed ` +
        'after it was made. Nothing was restored; use another backup.',
    );
  return { manifest, files: entries };
}

function parseManifest<Facts>(bytes: Buffer | undefined): ArchiveManifest<Facts> | undefined {
  try {
    return bytes ? (JSON.parse(bytes.toString('utf8')) as ArchiveManifest<Facts>) : undefined;
  } catch {
    return undefined;
  }
}

async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function untar(bytes: Buffer): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  const finished = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      collect(stream)
        .then((data) => {
          if (header.type === 'file') entries.set(header.name, data);
          next();
        })
        .catch(reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  Readable.from([bytes]).pipe(extract);
  await finished;
  return entries;
}
