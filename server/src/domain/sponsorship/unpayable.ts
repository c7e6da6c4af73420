// When the distributor cannot pay a batch (docs/security.md#sponsored-claims): which of its claims
// it cannot pay, each on its own, and the longest run of the others it can pay together (a
// distributor short of REME pays some claims alone but not all of them at once). The relayer fails
// the first with a reason the member reads and sends the second; the rest wait for the next batch.
import type { Interface } from 'ethers';

/** A revert's data ('0x' when the node gave none), or null when the error is not a revert (the
 * node could not be reached, timed out, ...): a revert is the contract's answer, the rest is not. */
export function revertData(error: unknown): string | null {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const nested = (e.data as { data?: unknown } | undefined)?.data;
  for (const data of [e.data, nested])
    if (typeof data === 'string' && /^0x[0-9a-f]*$/i.test(data)) return data;
  if (e.code === 3 || /revert/i.test(String(e.message ?? ''))) return '0x';
  return null;
}

export const UNPAYABLE_REASONS = {
  underfunded:
    'The rewards contract does not hold enough REME to pay your claim right now. The operator has been told; please try again later.',
  staleRound:
    'A new distribution round was published before this claim was sent. Please claim again.',
  refused:
    'The rewards contract refused this claim. Please try again later, or claim by paying the network fee yourself.',
} as const;

/** What the member is told about a claim the contract reverts on, by the revert's custom error. */
export function unpayableReason(data: string, contracts: Interface[]): string {
  for (const contract of contracts) {
    const name = (() => {
      try {
        return contract.parseError(data)?.name;
      } catch {
        return undefined;
      }
    })();
    if (name === 'ERC20InsufficientBalance') return UNPAYABLE_REASONS.underfunded;
    if (name === 'WrongRound') return UNPAYABLE_REASONS.staleRound;
  }
  return UNPAYABLE_REASONS.refused;
}

/** The node's gas estimate for a batch of these claims, or its revert data. */
export type Estimate<T> = (claims: T[]) => Promise<{ gas: bigint } | { revert: string }>;

export interface PayablePlan<T> {
  /** The claims to send now (the longest run of payable ones the contract pays together), and its gas. */
  send: { claims: T[]; gas: bigint } | null;
  /** Claims the contract refuses even alone, with its revert data. */
  unpayable: Array<{ claim: T; revert: string }>;
}

/** Splits a batch whose estimate reverted: one estimate per claim, then a bisection for the longest
 * run of the payable ones that the contract still pays together. */
export async function planPayable<T>(claims: T[], estimate: Estimate<T>): Promise<PayablePlan<T>> {
  const payable: Array<{ claim: T; gas: bigint }> = [];
  const unpayable: PayablePlan<T>['unpayable'] = [];
  for (const claim of claims) {
    const alone = await estimate([claim]);
    if ('revert' in alone) unpayable.push({ claim, revert: alone.revert });
    else payable.push({ claim, gas: alone.gas });
  }
  if (payable.length === 0) return { send: null, unpayable };
  const all = payable.map((p) => p.claim);
  const together = payable.length > 1 ? await estimate(all) : { gas: payable[0]!.gas };
  if (!('revert' in together)) return { send: { claims: all, gas: together.gas }, unpayable };
  // The first payable claim alone is known to pass, all of them together not: bisect between.
  let best = { claims: [payable[0]!.claim], gas: payable[0]!.gas };
  let low = 1;
  let high = payable.length - 1;
  while (low < high) {
    const size = Math.ceil((low + high) / 2);
    const run = all.slice(0, size);
    const answer = await estimate(run);
    if ('revert' in answer) high = size - 1;
    else {
      best = { claims: run, gas: answer.gas };
      low = size;
    }
  }
  return { send: best, unpayable };
}
