// The claim call: encoded with the distributor's ABI, priced as estimated gas × gas price,
// checked against the root on the chain before anything is signed.
import { verifyProof, type ClaimData } from '@crw/core';
import { Interface } from 'ethers';
import { rpc, RpcError } from '../../../lib/chain';

const distributor = new Interface([
  'function claim(address account, uint256 cumulativeAmount, bytes32[] proof, uint256 index)',
  'function merkleRoot() view returns (bytes32)',
  'error WrongRound(uint256 given, uint256 current)',
  'error InvalidProof()',
  'error NothingToClaim(address account, uint256 cumulativeAmount, uint256 claimed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
]);

const reasons: Record<string, string> = {
  InvalidProof: 'the proof does not match the published round.',
  WrongRound: 'a newer distribution round was published; reopen this page.',
  NothingToClaim: 'these tokens have already been claimed.',
  ERC20InsufficientBalance: 'the distributor cannot pay this claim right now.',
};

/** A readable reason from a node error (a contract's custom error where there is one). */
export function failureReason(error: unknown): string {
  if (error instanceof RpcError && error.data) {
    const parsed = (() => {
      try {
        return distributor.parseError(error.data);
      } catch {
        return null;
      }
    })();
    if (parsed) return reasons[parsed.name] ?? parsed.name;
  }
  return error instanceof Error ? error.message : String(error);
}

export interface PricedClaim {
  to: string;
  data: string;
  gasLimit: bigint;
  gasPrice: bigint;
  fee: bigint;
}

export async function priceClaim(
  distributorAddress: string,
  account: string,
  claim: ClaimData,
): Promise<PricedClaim> {
  const data = distributor.encodeFunctionData('claim', [
    account,
    claim.distributedTokens,
    claim.proof,
    claim.distributionIndex,
  ]);
  const [gas, gasPrice] = await Promise.all([
    rpc('eth_estimateGas', [{ from: account, to: distributorAddress, data }]),
    rpc('eth_gasPrice'),
  ]);
  return {
    to: distributorAddress,
    data,
    gasLimit: BigInt(gas),
    gasPrice: BigInt(gasPrice),
    fee: BigInt(gas) * BigInt(gasPrice),
  };
}

/** True when the member's proof leads to the root the distributor holds now. */
export async function proofMatchesChain(
  distributorAddress: string,
  account: string,
  claim: ClaimData,
): Promise<boolean> {
  const root = await rpc('eth_call', [
    { to: distributorAddress, data: distributor.encodeFunctionData('merkleRoot') },
    'latest',
  ]);
  return verifyProof(root, account, BigInt(claim.distributedTokens), claim.proof);
}
