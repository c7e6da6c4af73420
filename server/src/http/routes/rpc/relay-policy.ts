// What POST /rpc passes on to the chain for anonymous callers. Calls and estimates go
// only to the REME token and the rewards distributor, only to functions of that contract's ABI,
// with the gas clamped: an open eth_call ran arbitrary code for up to the block gas limit and
// grew the node by ~350 MiB per million gas. Transactions are relayed only when they are what a
// member needs: a distributor `claim` or a REME `transfer`, without value, within the gas cap,
// signed for this chain. The operator's own transactions never go through /rpc, so a leaked or
// well-known key cannot publish a root or move the treasury through it.
import { Transaction, getAddress, isHexString, toQuantity, type Contract } from 'ethers';
import { NodeError } from '../../../infra/chain/node';

/**
 * Gas for any forwarded call, estimate or relayed transaction. A first claim with a 20-hash proof
 * (a 1,000,000-member round) uses ~73,000 gas and a REME transfer ~34,000: the cap leaves ~7× margin
 * and bounds a call's work on the node to tens of milliseconds.
 */
export const RELAY_GAS_CAP = 500_000n;

const INVALID_PARAMS = -32602;
const TRANSACTION_REJECTED = -32003;

/** Legacy, EIP-2930 and EIP-1559 transactions; no blob or set-code (EIP-7702) transactions. */
const RELAYED_TYPES = new Set([0, 1, 2]);

export interface RelayPolicy {
  /** The params to forward for eth_call or eth_estimateGas; throws a NodeError when refused. */
  call(params: unknown[]): unknown[];
  /** Throws a NodeError unless the raw transaction is a claim or a REME transfer. */
  transaction(params: unknown[]): void;
}

export function relayPolicy(token: Contract, distributor: Contract, chainId: number): RelayPolicy {
  const selectors = new Map<string, Set<string>>();
  for (const contract of [token, distributor]) {
    const own = new Set<string>();
    contract.interface.forEachFunction((fn) => own.add(fn.selector));
    selectors.set(getAddress(contract.target as string), own);
  }
  const relayed = new Map([
    [
      getAddress(distributor.target as string),
      distributor.interface.getFunction('claim')!.selector,
    ],
    [getAddress(token.target as string), token.interface.getFunction('transfer')!.selector],
  ]);

  return {
    call(params) {
      const refuse = (why: string) => new NodeError(INVALID_PARAMS, `Call refused: ${why}`);
      const [request, block, ...overrides] = params;
      if (overrides.length > 0) throw refuse('state overrides are not forwarded');
      if (block !== undefined && typeof block !== 'string')
        throw refuse('the block must be a tag or a number');
      if (typeof request !== 'object' || request === null)
        throw refuse('the call must be an object');
      const { from, to, data, input, value, gas } = request as Record<string, unknown>;
      const target = typeof to === 'string' && isHexString(to, 20) ? getAddress(to) : undefined;
      const functions = target && selectors.get(target);
      if (!functions) throw refuse('calls go only to the REME token and the rewards distributor');
      const calldata = data ?? input;
      if (
        !isHexString(calldata) ||
        calldata.length < 10 ||
        !functions.has(calldata.slice(0, 10).toLowerCase())
      ) {
        throw refuse('not a function of that contract');
      }
      if (value !== undefined && quantity(value, refuse) !== 0n)
        throw refuse('calls carry no value');
      if (from !== undefined && !isHexString(from, 20)) throw refuse('from must be an address');
      const limit = gas === undefined ? RELAY_GAS_CAP : quantity(gas, refuse);
      const forwarded = {
        ...(from === undefined ? {} : { from }),
        to: target,
        data: calldata,
        gas: toQuantity(limit < RELAY_GAS_CAP ? limit : RELAY_GAS_CAP),
      };
      return block === undefined ? [forwarded] : [forwarded, block];
    },

    transaction(params) {
      const refuse = (why: string) =>
        new NodeError(TRANSACTION_REJECTED, `Transaction refused: ${why}`);
      const [raw] = params;
      let tx: Transaction;
      try {
        tx = Transaction.from(raw as string);
      } catch {
        throw refuse('not a signed transaction');
      }
      if (params.length !== 1 || !tx.signature) throw refuse('not a signed transaction');
      if (!RELAYED_TYPES.has(tx.type ?? 0))
        throw refuse(`type ${tx.type} transactions are not relayed`);
      if (tx.chainId !== BigInt(chainId))
        throw refuse(`signed for chain ${tx.chainId}, not ${chainId}`);
      if (!tx.to) throw refuse('contract creation is not relayed');
      if (relayed.get(getAddress(tx.to)) !== tx.data.slice(0, 10).toLowerCase()) {
        throw refuse('/rpc relays only a claim on the rewards distributor and a REME transfer');
      }
      if (tx.value !== 0n) throw refuse('a claim or transfer carries no value');
      if (tx.gasLimit > RELAY_GAS_CAP) throw refuse(`the gas limit is above ${RELAY_GAS_CAP}`);
    },
  };
}

function quantity(value: unknown, refuse: (why: string) => Error): bigint {
  if (typeof value === 'string' && /^0x[0-9a-f]{1,64}$/i.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw refuse(`${String(value)} is not a quantity`);
}
