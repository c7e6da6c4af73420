// Repairs a shortfall of the funding invariant: sends the distributor, from the operator's REME,
// what its round owes beyond what it holds, as the chain index sees both at one block. Claims made
// meanwhile lower what is owed and what is held alike, so the amount sent is never too little.
import { formatUnits } from 'ethers';
import type { Kysely } from 'kysely';
import type { Chain } from '../../infra/chain/chain';
import type { DB } from '../../infra/db/schema';
import { measureFunding, recordFunding, type FundingStatus } from './funding';

/** The repair cannot be made as asked (the API answers 409 with the message). */
export class FundingRefused extends Error {}

export interface FundingRepair {
  txHash: string | null;
  sent: bigint;
  /** The funding check after the transfer (before it, when nothing was sent). */
  status: FundingStatus;
}

export async function fundDistributor(
  db: Kysely<DB>,
  chain: Chain,
  settings: { confirmations: number; syncIndex: () => Promise<void> },
): Promise<FundingRepair> {
  await settings.syncIndex();
  const before = await measureFunding(db);
  if (!before)
    throw new FundingRefused(
      'The chain index has not read the distributor yet; try again shortly.',
    );
  if (before.shortfall === 0n) return { txHash: null, sent: 0n, status: before };
  const missing = before.shortfall;
  const tx = await chain.operatorTurn(async () => {
    const held = BigInt(await chain.token.getFunction('balanceOf')(chain.operator.address));
    if (held < missing)
      throw new FundingRefused(
        `The operator's account holds ${formatUnits(held, 18)} REME, less than the ${formatUnits(missing, 18)} REME the distributor lacks.`,
      );
    try {
      return await chain.token.getFunction('transfer')(String(chain.distributor.target), missing);
    } catch (error) {
      if ((error as { code?: string }).code === 'INSUFFICIENT_FUNDS')
        throw new FundingRefused("The operator's account has no ETH for the transfer's fee.");
      throw error;
    }
  });
  await tx.wait(settings.confirmations || 1);
  await settings.syncIndex();
  const after = (await measureFunding(db)) ?? before;
  await recordFunding(db, after);
  return { txHash: tx.hash as string, sent: missing, status: after };
}
