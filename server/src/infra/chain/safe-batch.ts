// A file of transactions for Safe's Transaction Builder (Safe{Wallet} → Apps → Transaction Builder
// → drag the file in): what a treasury or guardian that signs in a Safe, not on this server, is
// asked to sign — the treasury's approval of the distributor, a guardian's cancel of a root in
// review (docs/operations.md#separate-keys). Each call is written with its method and arguments,
// so the Safe's owners read what they sign rather than hex.
import { artifact, type ContractName } from '@crw/contracts';
import { Interface } from 'ethers';

export interface SafeCall {
  contract: ContractName;
  to: string;
  method: string;
  args: unknown[];
}

/** The Transaction Builder's batch file (its `BatchFile`, version 1.0) for `calls` from `safe`. */
export function safeBatch(
  chainId: number,
  safe: string,
  name: string,
  description: string,
  calls: SafeCall[],
) {
  return {
    version: '1.0' as const,
    chainId: String(chainId),
    createdAt: Date.now(),
    meta: {
      name,
      description,
      txBuilderVersion: '1.18.2',
      createdFromSafeAddress: safe,
      createdFromOwnerAddress: '',
    },
    transactions: calls.map((call) => {
      const fragment = new Interface(artifact(call.contract).abi).getFunction(call.method)!;
      return {
        to: call.to,
        value: '0',
        data: null,
        contractMethod: {
          inputs: fragment.inputs.map((input) => ({
            internalType: input.type,
            name: input.name,
            type: input.type,
          })),
          name: fragment.name,
          payable: fragment.payable,
        },
        contractInputsValues: Object.fromEntries(
          fragment.inputs.map((input, i) => [input.name, String(call.args[i])]),
        ),
      };
    }),
  };
}

/** The calldata of a batch file's transaction: what the Safe will send (tests sign it themselves). */
export function batchCalldata(
  contract: ContractName,
  transaction: ReturnType<typeof safeBatch>['transactions'][number],
): string {
  const iface = new Interface(artifact(contract).abi);
  const fragment = iface.getFunction(transaction.contractMethod.name)!;
  return iface.encodeFunctionData(
    fragment,
    fragment.inputs.map((input) => transaction.contractInputsValues[input.name]),
  );
}
