// The embedded chain's accounts: the operator and the faucet hold keys made per
// install and kept in DATA_DIR, never Hardhat's public test mnemonic that anyone can sign with.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HDNodeWallet, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_FAUCET_KEY_FILE, CHAIN_OPERATOR_KEY_FILE } from '../src/infra/chain/embedded-keys';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const PUBLIC_MNEMONIC = 'test test test test test test test test test test test junk';
const publicAddresses = Array.from(
  { length: 20 },
  (_, i) => HDNodeWallet.fromPhrase(PUBLIC_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`).address,
);

let dataDir: string;
let t: TestApp;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'crw-keys-'));
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
}, 60_000);
afterAll(() => t?.close());

describe(`the embedded chain's accounts (${testDbKind})`, () => {
  it('are not derived from the public test mnemonic, which holds nothing on the chain', async () => {
    const { operator, faucet, distributor, provider } = t.services.chain;
    expect(publicAddresses).not.toContain(operator.address);
    expect(publicAddresses).not.toContain(faucet!.address);
    // The install's one key is the distributor's treasury (and its publisher and guardian).
    expect(await distributor.getFunction('treasury')()).toBe(operator.address);
    for (const address of publicAddresses) expect(await provider.getBalance(address)).toBe(0n);
  });

  it('are kept in DATA_DIR with mode 0600, and another install gets its own', async () => {
    const { operator, faucet } = t.services.chain;
    for (const [file, wallet] of [
      [CHAIN_OPERATOR_KEY_FILE, operator],
      [CHAIN_FAUCET_KEY_FILE, faucet!],
    ] as const) {
      const keyFile = path.join(dataDir, file);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(new Wallet(readFileSync(keyFile, 'utf8').trim()).address).toBe(wallet.address);
    }
    const other = await buildTestApp();
    try {
      expect(other.services.chain.operator.address).not.toBe(operator.address);
      expect(other.services.chain.distributor.target).not.toBe(t.services.chain.distributor.target);
    } finally {
      await other.close();
    }
  });
});
