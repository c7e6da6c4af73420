// A sponsored claim: the member's wallet signs what it asks the operator to claim for
// it — EIP-712 typed data, so a wallet shows it field by field and the signature is good for this
// chain and this distributor only. The server checks it and queues the claim; the relayer pays the
// network fee. The distributor pays `account` whoever sends, so nothing here can redirect tokens.
import { verifyTypedData, type TypedDataDomain, type TypedDataField } from 'ethers';

export interface ClaimRequest {
  account: string;
  /** The member's cumulative amount in the round, base units (decimal string). */
  cumulativeAmount: string;
  round: number;
  /** Unix seconds after which the request is refused. */
  deadline: number;
}

/** How long a signed request stays good (the server refuses later ones and longer ones). */
export const CLAIM_REQUEST_LIFETIME_S = 15 * 60;

export const claimRequestTypes: Record<string, TypedDataField[]> = {
  ClaimRequest: [
    { name: 'account', type: 'address' },
    { name: 'cumulativeAmount', type: 'uint256' },
    { name: 'round', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};

export function claimRequestDomain(chainId: number, distributorAddress: string): TypedDataDomain {
  return {
    name: 'Community Rewards Wallet',
    version: '1',
    chainId,
    verifyingContract: distributorAddress,
  };
}

/** The address that signed `request`, or null when the signature is malformed. */
export function claimRequestSigner(
  chainId: number,
  distributorAddress: string,
  request: ClaimRequest,
  signature: string,
): string | null {
  try {
    return verifyTypedData(
      claimRequestDomain(chainId, distributorAddress),
      claimRequestTypes,
      request,
      signature,
    );
  } catch {
    return null;
  }
}
