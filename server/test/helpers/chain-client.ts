// A member's side of the chain in tests: ethers over the app's own /rpc (inject), signing a claim
// with only the allow-listed methods, as the web app does.
import { artifact } from '@crw/contracts';
import { Interface, Transaction, Wallet } from 'ethers';
import type { FastifyInstance } from 'fastify';

export const distributorInterface = new Interface(artifact('RewardsDistributor').abi);
export const tokenInterface = new Interface(artifact('RemeToken').abi);

type RpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: string } };
/** The app's /rpc, in process (a Fastify instance) or over HTTP (a server's base URL). */
export type RpcTarget = FastifyInstance | string;

export async function rpc(
  target: RpcTarget,
  method: string,
  params: unknown[] = [],
): Promise<RpcAnswer> {
  const payload = { jsonrpc: '2.0', id: 1, method, params };
  if (typeof target === 'string') {
    const res = await fetch(`${target}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return (await res.json()) as RpcAnswer;
  }
  return (await target.inject({ method: 'POST', url: '/rpc', payload })).json() as RpcAnswer;
}

/** Reads a view function through /rpc eth_call. */
export async function read(
  target: RpcTarget,
  contract: string,
  iface: Interface,
  fn: string,
  args: unknown[],
): Promise<unknown> {
  const answer = await rpc(target, 'eth_call', [
    { to: contract, data: iface.encodeFunctionData(fn, args) },
    'latest',
  ]);
  return iface.decodeFunctionResult(fn, answer.result as string)[0];
}

/** Estimates, signs (legacy gas price) and sends claim(account, amount, proof, index) through /rpc. */
export function sendClaim(
  app: RpcTarget,
  privateKey: string,
  distributor: string,
  args: [string, bigint, string[], number],
) {
  return sendCall(
    app,
    privateKey,
    distributor,
    distributorInterface.encodeFunctionData('claim', args),
  );
}

/** Estimates, signs (legacy gas price) and sends a call of `data` to `to` through /rpc. */
export async function sendCall(app: RpcTarget, privateKey: string, to: string, data: string) {
  const wallet = new Wallet(privateKey);
  const call = { from: wallet.address, to, data };
  const estimate = await rpc(app, 'eth_estimateGas', [call]);
  if (estimate.error) return { error: estimate.error };
  const [gasPrice, nonce, chainId] = await Promise.all([
    rpc(app, 'eth_gasPrice'),
    rpc(app, 'eth_getTransactionCount', [wallet.address, 'pending']),
    rpc(app, 'eth_chainId'),
  ]);
  const tx = Transaction.from({
    type: 0,
    to,
    data,
    gasLimit: BigInt(estimate.result as string),
    gasPrice: BigInt(gasPrice.result as string),
    nonce: Number(nonce.result),
    chainId: BigInt(chainId.result as string),
  });
  const sent = await rpc(app, 'eth_sendRawTransaction', [await wallet.signTransaction(tx)]);
  if (sent.error) return { error: sent.error };
  const receipt = await rpc(app, 'eth_getTransactionReceipt', [sent.result]);
  return {
    hash: sent.result as string,
    receipt: receipt.result as { status: string; gasUsed: string; blockNumber: string },
  };
}
