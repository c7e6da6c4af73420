// `ops backup` and `ops restore` (docs/operations.md#backups). The backup is made by the running
// server (the only process that may open the embedded database) and checked here before it is
// written; the restore runs with no server, into an empty DATA_DIR or database.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { errorResponse } from '@crw/core';
import { artifact } from '@crw/contracts';
import { Contract, JsonRpcProvider } from 'ethers';
import { parseConfig } from '../config';
import { encryptArchive, openArchive } from '../infra/backup/archive';
import { restoreBackup, type BackupFacts } from '../domain/operators/backup';
import { operatorKey, serverUrl } from './operator-api';

const passphraseOptions = { 'passphrase-file': { type: 'string' } } as const;

/** BACKUP_PASSPHRASE, or the first line of --passphrase-file; undefined when neither is given. */
async function passphrase(file: string | undefined): Promise<string | undefined> {
  if (file) {
    const text = (await readFile(file, 'utf8')).split(/\r?\n/)[0]!;
    if (text.length < 12)
      throw new Error(`The passphrase in ${file} is shorter than 12 characters.`);
    return text;
  }
  const fromEnv = process.env.BACKUP_PASSPHRASE;
  if (fromEnv !== undefined && fromEnv.length < 12)
    throw new Error('BACKUP_PASSPHRASE is shorter than 12 characters.');
  return fromEnv || undefined;
}

export async function backup(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { out: { type: 'string' }, ...passphraseOptions },
  });
  const secret = await passphrase(values['passphrase-file']);
  const server = serverUrl();
  let response: Response;
  try {
    response = await fetch(`${server}/api/operator/backup`, {
      headers: { authorization: `Bearer ${await operatorKey()}` },
    });
  } catch {
    throw new Error(`Could not reach the server at ${server}. Is it running? (SERVER_URL)`);
  }
  if (!response.ok) {
    const refusal = errorResponse.safeParse(await response.json().catch(() => null));
    throw new Error(
      `${response.status}: ${refusal.success ? refusal.data.message : 'backup refused'}`,
    );
  }
  const archive = Buffer.from(await response.arrayBuffer());
  // Checked before it is kept: a backup that would not restore is no backup.
  const { manifest } = await openArchive<BackupFacts>(archive);
  const stamp = manifest.createdAt.replace(/[:.]/g, '-');
  const out = path.resolve(values.out ?? `backup-${stamp}.tar.gz${secret ? '.age' : ''}`);
  const bytes = secret ? await encryptArchive(archive, secret) : archive;
  // 0600, and never over an existing file.
  await writeFile(out, bytes, { mode: 0o600, flag: 'wx' });
  const f = manifest.facts;
  console.log(
    [
      `Backup written to ${out} (${(bytes.length / 1e6).toFixed(1)} MB, ${secret ? 'encrypted with the passphrase' : 'not encrypted: keep it as safe as the keys it holds'}).`,
      `  ${f.members} members, rounds published up to ${f.round}, schema ${f.migration}, ` +
        (f.chain
          ? `chain ${f.chain.chainId} followed to block ${f.chain.block}.`
          : 'no chain followed yet.'),
      `  Keys in it: ${
        manifest.files
          .filter((x) => x.name.startsWith('keys/'))
          .map((x) => x.name.slice(5))
          .join(', ') || 'none'
      }.`,
      ...(f.keysInEnvironment.length > 0
        ? [
            `  Not in it (kept in the environment; keep them apart from this file): ${f.keysInEnvironment.join(', ')}.`,
          ]
        : []),
    ].join('\n'),
  );
}

export async function restore(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: passphraseOptions,
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file) throw new Error('restore needs the backup file: npm run ops -- restore <file>');
  const parsed = parseConfig(process.env);
  if (!parsed.ok) throw new Error(`The settings are not valid:\n  ${parsed.problems.join('\n  ')}`);
  const config = parsed.config;
  const report = await restoreBackup(await readFile(file), config, {
    passphrase: await passphrase(values['passphrase-file']),
    chainId: config.CHAIN_RPC_URL ? () => rpcChainId(config.CHAIN_RPC_URL!) : undefined,
  });
  const f = report.facts;
  const chainRound =
    config.CHAIN_RPC_URL && config.DISTRIBUTOR_ADDRESS
      ? await rpcCurrentRound(config.CHAIN_RPC_URL, config.DISTRIBUTOR_ADDRESS)
      : f.round;
  console.log(
    [
      `Restored the backup made ${report.createdAt} (version ${f.version}) into ${f.database === 'pglite' ? config.dataDir : 'DATABASE_URL'}.`,
      `  ${f.members} members, rounds published up to ${f.round}${f.chain ? `, the chain followed to block ${f.chain.block}` : ''}.`,
      `  Keys restored to DATA_DIR: ${report.keysRestored.join(', ') || 'none'}.`,
      ...(f.keysInEnvironment.length > 0
        ? [
            `  Set these in the environment as the backed-up install had them: ${f.keysInEnvironment.join(', ')}.`,
          ]
        : []),
      ...(report.migrationsToApply.length > 0
        ? [`  The next start brings the schema forward: ${report.migrationsToApply.join(', ')}.`]
        : []),
      `What the backup cannot bring back: accounts made after ${report.createdAt}, and what they and`,
      '  others earned since, are not in it; those members register again.',
      f.chain?.embedded
        ? '  The embedded chain comes back from the journal in the database, as it was at the backup: claims and rounds made after it are gone with it, never paid twice.'
        : '  The chain decides the rest: at start the follower reads on from the block above, so claims made after the backup are counted as the chain has them.',
      ...(chainRound > f.round
        ? [
            `  The chain has round ${chainRound}, newer than the backup's round ${f.round}: its tree is not in the backup, and members`,
            `  cannot claim from it. Publish a new round (ops distribute --publish): it will be round ${chainRound + 1}, with`,
            "  everyone's cumulative amounts; the distributor pays each member only what they have not claimed.",
          ]
        : []),
      'Next: start the server (npm start).',
    ].join('\n'),
  );
}

/** The chain id CHAIN_RPC_URL answers for (ethers' provider, as the server uses). */
async function rpcChainId(url: string): Promise<number> {
  const provider = new JsonRpcProvider(url);
  try {
    return Number((await provider.getNetwork()).chainId);
  } finally {
    provider.destroy();
  }
}

/** The distributor's latest round on the chain. */
async function rpcCurrentRound(url: string, distributor: string): Promise<number> {
  const provider = new JsonRpcProvider(url);
  try {
    const contract = new Contract(distributor, artifact('RewardsDistributor').abi, provider);
    return Number(await contract.getFunction('currentIndex')());
  } finally {
    provider.destroy();
  }
}
