// What a relayer needs around RewardsDistributor.claimMany (docs/decisions/0014): the shape of one
// claim in the batch and a reading of the batch's receipt, which claims were paid and which skipped.
import { Interface } from 'ethers';
import { artifact } from './index';

/** One member's claim in a `claimMany(index, claims)` batch; ethers encodes it as the Claim tuple. */
export interface BatchClaim {
  account: string;
  /** The member's cumulative amount in the round, base units (the leaf's amount). */
  cumulativeAmount: bigint;
  /** The leaf's proof in the round's tree (`proofAt(nodes, treeIndex)` from @crw/core). */
  proof: readonly string[];
}

/** `ClaimSkipped`'s reason, by its uint8 value. */
export const CLAIM_SKIP_REASONS = ['InvalidProof', 'NothingToClaim'] as const;
export type ClaimSkipReason = (typeof CLAIM_SKIP_REASONS)[number];

export interface BatchOutcome {
  /** Each `Claimed` of the batch: what the account received. */
  paid: { account: string; amount: bigint }[];
  /** Each `ClaimSkipped` of the batch. */
  skipped: { account: string; reason: ClaimSkipReason }[];
}

interface LogLike {
  address: string;
  topics: readonly string[];
  data: string;
}

let distributorEvents: Interface | undefined;

/** Reads a `claimMany` receipt's logs (those of the distributor at `distributor`). */
export function claimManyOutcome(distributor: string, logs: readonly LogLike[]): BatchOutcome {
  distributorEvents ??= new Interface(artifact('RewardsDistributor').abi);
  const outcome: BatchOutcome = { paid: [], skipped: [] };
  for (const log of logs) {
    if (log.address.toLowerCase() !== distributor.toLowerCase()) continue;
    const parsed = distributorEvents.parseLog(log);
    if (parsed?.name === 'Claimed') {
      outcome.paid.push({ account: String(parsed.args[0]), amount: BigInt(parsed.args[1]) });
    } else if (parsed?.name === 'ClaimSkipped') {
      const reason = CLAIM_SKIP_REASONS[Number(parsed.args[1])];
      if (!reason) throw new Error(`unknown ClaimSkipped reason ${String(parsed.args[1])}`);
      outcome.skipped.push({ account: String(parsed.args[0]), reason });
    }
  }
  return outcome;
}
