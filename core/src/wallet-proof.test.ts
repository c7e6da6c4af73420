import { SiweMessage } from 'siwe';
import { Wallet, verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { walletProofMessage, WALLET_PROOF_STATEMENTS, type WalletChallenge } from './wallet-proof';

const challenge: WalletChallenge = {
  purpose: 'register',
  domain: 'rewards.example.org',
  uri: 'https://rewards.example.org',
  chainId: 11155111,
  nonce: '0123456789abcdef0123456789abcdef',
  issuedAt: '2026-11-23T10:00:00.000Z',
  expiresAt: '2026-11-23T10:10:00.000Z',
};

describe('walletProofMessage', () => {
  it('is an EIP-4361 (Sign-In with Ethereum) message that the siwe library reads back field by field', async () => {
    const wallet = Wallet.createRandom();
    const text = walletProofMessage(challenge, wallet.address);
    const parsed = new SiweMessage(text);
    expect(parsed).toMatchObject({
      domain: challenge.domain,
      address: wallet.address,
      statement: WALLET_PROOF_STATEMENTS.register,
      uri: challenge.uri,
      version: '1',
      chainId: challenge.chainId,
      nonce: challenge.nonce,
      issuedAt: challenge.issuedAt,
      expirationTime: challenge.expiresAt,
    });
    expect(parsed.prepareMessage()).toBe(text);
    expect(verifyMessage(text, await wallet.signMessage(text))).toBe(wallet.address);
  });

  it('differs per purpose, so a save-wallet signature is no sign-up signature', () => {
    const address = Wallet.createRandom().address;
    expect(walletProofMessage(challenge, address)).not.toBe(
      walletProofMessage({ ...challenge, purpose: 'save-wallet' }, address),
    );
  });
});
