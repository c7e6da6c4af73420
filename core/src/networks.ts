// Test networks: their ETH is free test ETH from a faucet, never bought, so a member who
// needs some for a fee is pointed to a faucet rather than told to buy ETH.
const TEST_NETWORK_FAUCETS: Record<number, string | null> = {
  11155111: 'https://cloud.google.com/application/web3/faucet/ethereum/sepolia',
  17000: 'https://cloud.google.com/application/web3/faucet/ethereum/holesky',
  31337: null, // the embedded development chain: its operator sends test ETH (`npm run ops -- fund`)
  1337: null,
};

/** A test network: a known one, or any chain the operator names a faucet for. */
export function isTestNetwork(chainId: number, faucetUrl?: string | null): boolean {
  return chainId in TEST_NETWORK_FAUCETS || Boolean(faucetUrl);
}

/** The faucet members are sent to: the configured one, else the well-known public one, else none. */
export function faucetFor(chainId: number, configured?: string | null): string | null {
  return configured || TEST_NETWORK_FAUCETS[chainId] || null;
}
