// A member asking the operator to pay their claim's fee, as the web app does: they read their claim,
// sign a claim request with their wallet key and send it to POST /api/claim/sponsored.
import {
  claimRequestDomain,
  claimRequestTypes,
  CLAIM_REQUEST_LIFETIME_S,
  type ClaimRequest,
} from '@crw/core';
import { Wallet } from 'ethers';
import type { LightMyRequestResponse } from 'fastify';
import { ORIGIN, type MemberKeys } from './members';
import type { TestApp } from './test-app';

export interface SignedInMember {
  keys: MemberKeys;
  cookie: string;
}

/** The member's signed request for everything the current round gives them. */
export async function signedClaimRequest(t: TestApp, m: SignedInMember) {
  const claim = (
    await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: m.cookie } })
  ).json() as { distributedTokens: string; distributionIndex: number };
  const request: ClaimRequest = {
    account: m.keys.address,
    cumulativeAmount: claim.distributedTokens,
    round: claim.distributionIndex,
    deadline: Math.floor(Date.now() / 1000) + CLAIM_REQUEST_LIFETIME_S,
  };
  const domain = claimRequestDomain(
    t.services.chain.chainId,
    String(t.services.chain.distributor.target),
  );
  const signature = await new Wallet(m.keys.privateKey).signTypedData(
    domain,
    claimRequestTypes,
    request,
  );
  return { ...request, signature };
}

/** Signs and sends the member's sponsored claim request; answers the server's response. */
export async function askSponsoredClaim(
  t: TestApp,
  m: SignedInMember,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/claim/sponsored',
    headers: { cookie: m.cookie, origin: ORIGIN },
    payload: await signedClaimRequest(t, m),
  });
}

/** The member's latest sponsored claim as the claim screen reads it. */
export async function latestSponsoredClaim(t: TestApp, m: SignedInMember) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/claim/sponsored',
    headers: { cookie: m.cookie },
  });
  return (res.json() as { latest: { status: string; reason: string | null } | null }).latest;
}

/** DELETE /api/account with the member's auth secret. */
export function deleteAccount(t: TestApp, m: SignedInMember): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: { cookie: m.cookie, origin: ORIGIN },
    payload: { authSecret: m.keys.authSecret },
  });
}
