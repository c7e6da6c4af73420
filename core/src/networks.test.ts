import { describe, expect, it } from 'vitest';
import { faucetFor, isTestNetwork } from './networks';

describe('test networks and their faucets (no "Buy ETH" on a test network)', () => {
  it('knows Sepolia and the development chain as test networks, and Ethereum as not one', () => {
    expect(isTestNetwork(11155111)).toBe(true);
    expect(isTestNetwork(31337)).toBe(true);
    expect(isTestNetwork(1)).toBe(false);
  });
  it('takes any chain with a configured faucet as a test network', () => {
    expect(isTestNetwork(424242, 'https://faucet.example.org')).toBe(true);
    expect(isTestNetwork(424242, null)).toBe(false);
  });
  it('prefers the configured faucet, then the public one, and has none for the development chain', () => {
    expect(faucetFor(11155111)).toMatch(/^https:\/\/.*sepolia/);
    expect(faucetFor(11155111, 'https://faucet.example.org')).toBe('https://faucet.example.org');
    expect(faucetFor(31337)).toBeNull();
    expect(faucetFor(1)).toBeNull();
  });
});
