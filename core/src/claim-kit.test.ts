import { Interface, getAddress } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { ClaimData, PublicChain } from './api/claims';
import {
  claimAbi,
  buildClaimKit,
  claimKitFile,
  claimKitSchema,
  hasClaimKit,
  toChecksumAddress,
} from './claim-kit';
import { buildTree, proofAt, verifyProof } from './merkle';

const reme = (n: number) => BigInt(n) * 10n ** 18n;
const member = '0x8ba1f109551bd432803012645ac136ddd64dba72';
const sepolia: PublicChain = {
  chainId: 11155111,
  tokenAddress: '0x' + 'ab'.repeat(20),
  distributorAddress: '0x' + 'cd'.repeat(20),
  explorerUrl: 'https://sepolia.etherscan.io/',
  exchangeUrl: 'https://example.org/buy',
};
const distributor = new Interface([
  'function claim(address account, uint256 cumulativeAmount, bytes32[] proof, uint256 index)',
]);

/** A real round of 5 members and the proof of `member`'s leaf in it. */
async function roundWithMember(amount: bigint) {
  const entitlements = [member, ...[1, 2, 3, 4].map((i) => `0x${String(i).repeat(40)}`)].map(
    (address, i) => ({ address, amount: i === 0 ? amount : reme(100 + i) }),
  );
  const tree = await buildTree(entitlements);
  const claim: ClaimData = {
    proof: proofAt(tree.nodes, tree.treeIndex[0]!),
    distributedTokens: amount.toString(),
    distributionIndex: 3,
  };
  return { root: tree.root, claim };
}

describe('buildClaimKit (claim without this service)', () => {
  it("carries the member's leaf, proof, round, chain and contracts, and the four claim() values ready to paste", async () => {
    const amount = reme(350) + 5n * 10n ** 17n; // 350.5 REME
    const { root, claim } = await roundWithMember(amount);
    const kit = buildClaimKit({
      account: member,
      claim,
      chain: sepolia,
      origin: 'https://rewards.example.org/some/page?x=1',
    });

    expect(claimKitSchema.parse(JSON.parse(claimKitFile(kit).text))).toEqual(kit);
    expect(kit.round).toBe(3);
    expect(kit.leaf).toEqual({
      account: getAddress(member),
      cumulativeAmountWei: amount.toString(),
      cumulativeAmountReme: '350.5',
    });
    expect(kit.proof).toEqual(claim.proof);
    expect(kit.chain).toEqual({
      id: 11155111,
      name: 'Sepolia',
      explorerUrl: 'https://sepolia.etherscan.io',
    });
    expect(kit.token).toEqual({
      address: getAddress(sepolia.tokenAddress),
      symbol: 'REME',
      decimals: 18,
    });
    expect(kit.distributor).toEqual({
      address: getAddress(sepolia.distributorAddress),
      explorerWritePage: `https://sepolia.etherscan.io/address/${getAddress(sepolia.distributorAddress)}#writeContract`,
    });
    expect(kit.treeUrl).toBe('https://rewards.example.org/api/distributions/3/tree.json');

    // What Etherscan's form takes: the address, wei as digits, the proof as a JSON array of hex strings, the round.
    const values = kit.claim.arguments.map((a) => a.value);
    expect(kit.claim.arguments.map((a) => `${a.name} (${a.type})`)).toEqual([
      'account (address)',
      'cumulativeAmount (uint256)',
      'proof (bytes32[])',
      'index (uint256)',
    ]);
    expect(values).toEqual([
      getAddress(member),
      amount.toString(),
      `["${claim.proof.join('","')}"]`,
      '3',
    ]);
    const [account, cumulative, proof, index] = [
      values[0]!,
      BigInt(values[1]!),
      JSON.parse(values[2]!) as string[],
      Number(values[3]),
    ];
    expect(verifyProof(root, account, cumulative, proof)).toBe(true);
    expect(kit.claim.calldata).toBe(
      distributor.encodeFunctionData('claim', [account, cumulative, proof, index]),
    );
    expect(new Interface(kit.claim.abi).getFunction('claim')!.format('full')).toBe(
      new Interface(claimAbi()).getFunction('claim')!.format('full'),
    );
    // The errors a claim can end in, so a tool given this ABI says why a claim was refused.
    expect(
      ['WrongRound', 'InvalidProof', 'NothingToClaim'].map((name) =>
        new Interface(kit.claim.abi).getError(name)?.format('sighash'),
      ),
    ).toEqual([
      'WrongRound(uint256,uint256)',
      'InvalidProof()',
      'NothingToClaim(address,uint256,uint256)',
    ]);
    expect(claimKitFile(kit).name).toBe('reme-claim-kit-round-3.json');
  });

  it('tells a member who is not technical how to claim through the explorer, that anyone may send it, and what the amount means', async () => {
    const { claim } = await roundWithMember(reme(200));
    const kit = buildClaimKit({
      account: member,
      claim,
      chain: sepolia,
      origin: 'https://rewards.example.org',
    });
    const text = kit.instructions.join('\n');
    expect(text).toContain(`Step 1: open ${kit.distributor.explorerWritePage}`);
    expect(text).toContain('"Contract" tab, then "Write Contract"');
    expect(text).toContain('Connect');
    expect(text).toContain('function called "claim"');
    for (const a of kit.claim.arguments)
      expect(kit.instructions).toContainEqual(
        expect.stringContaining(`${a.name} (${a.type}): ${a.value}`),
      );
    expect(text).toContain('network fee in ETH');
    expect(text).toContain('Sepolia ETH');
    expect(text).toMatch(
      /friend or family member .* their own wallet and pay the fee\. The REME still goes only to your address/,
    );
    expect(text).toContain('only your 12-word recovery phrase can reach it');
    expect(text).toContain('running total');
    expect(text).toContain('download the newer kit');
    expect(text).toContain(kit.treeUrl);
    expect(text).toContain('200 REME in total, for distribution round 3');
  });

  it('names the local development chain, which has no public explorer, and other chains by their id', async () => {
    const { claim } = await roundWithMember(reme(200));
    const local = buildClaimKit({
      account: member,
      claim,
      chain: { ...sepolia, chainId: 31337, explorerUrl: null },
      origin: 'http://localhost:3000',
    });
    expect(local.chain).toEqual({ id: 31337, name: 'Local development chain', explorerUrl: null });
    expect(local.distributor.explorerWritePage).toBeNull();
    expect(local.instructions.join('\n')).toContain(
      'the local development chain has no public block explorer',
    );
    expect(local.treeUrl).toBe('http://localhost:3000/api/distributions/3/tree.json');
    expect(claimKitSchema.safeParse(local).success).toBe(true);

    // Sepolia without EXPLORER_URL still points at Sepolia's Etherscan; an unknown chain has only its id.
    expect(
      buildClaimKit({
        account: member,
        claim,
        chain: { ...sepolia, explorerUrl: null },
        origin: 'https://x.example',
      }).chain.explorerUrl,
    ).toBe('https://sepolia.etherscan.io');
    expect(
      buildClaimKit({
        account: member,
        claim,
        chain: { ...sepolia, chainId: 424242, explorerUrl: null },
        origin: 'https://x.example',
      }).chain,
    ).toEqual({
      id: 424242,
      name: 'Chain 424242',
      explorerUrl: null,
    });
  });

  it('makes a kit for the only member of a round, whose proof is empty', () => {
    const kit = buildClaimKit({
      account: member,
      claim: { proof: [], distributedTokens: reme(200).toString(), distributionIndex: 1 },
      chain: sepolia,
      origin: 'https://x.example',
    });
    expect(kit.claim.arguments[2].value).toBe('[]');
    expect(kit.claim.calldata).toBe(
      distributor.encodeFunctionData('claim', [member, reme(200), [], 1]),
    );
  });

  it('refuses to make a kit when there is nothing to claim', () => {
    expect(hasClaimKit({ proof: [], distributedTokens: '0', distributionIndex: 2 })).toBe(false);
    expect(hasClaimKit({ proof: [], distributedTokens: '0', distributionIndex: 0 })).toBe(false);
    expect(
      hasClaimKit({ proof: [], distributedTokens: reme(1).toString(), distributionIndex: 1 }),
    ).toBe(true);
    expect(() =>
      buildClaimKit({
        account: member,
        claim: { proof: [], distributedTokens: '0', distributionIndex: 2 },
        chain: sepolia,
        origin: 'https://x.example',
      }),
    ).toThrow(RangeError);
  });

  it('the schema refuses a kit whose values were changed by hand', async () => {
    const { claim } = await roundWithMember(reme(200));
    const kit = buildClaimKit({
      account: member,
      claim,
      chain: sepolia,
      origin: 'https://x.example',
    });
    const edited = structuredClone(kit);
    edited.claim.arguments[1].value = reme(9000).toString();
    expect(claimKitSchema.safeParse(edited).success).toBe(false);
    expect(claimKitSchema.safeParse({ ...kit, round: 4 }).success).toBe(false);
  });
});

describe('toChecksumAddress', () => {
  it('writes addresses as EIP-55 checksums, as wallets show them', () => {
    for (const a of [
      member,
      '0x' + 'ab'.repeat(20),
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      '0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359',
    ])
      expect(toChecksumAddress(a)).toBe(getAddress(a.toLowerCase()));
  });
});
