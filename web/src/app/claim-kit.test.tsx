import { claimKitSchema } from '@crw/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appTestHooks, links, member, renderAt, requests, serveMember } from '../test-fixtures';
import { createQueryClient, Providers } from './providers';
import { AppRoutes } from './routes';

appTestHooks();
afterEach(() => vi.restoreAllMocks());

const reme = (n: number) => (BigInt(n) * 10n ** 18n).toString();
const claimable = {
  ...member,
  tokens: {
    ...member.tokens,
    distributed: reme(350),
    forClaiming: reme(200),
    claimSplit: { signup: '0', referral: reme(200) },
  },
};
const proof = ['0x' + 'a1'.repeat(32), '0x' + 'b2'.repeat(32), '0x' + 'c3'.repeat(32)];
const claimData = { proof, distributedTokens: reme(350), distributionIndex: 4 };
const NOTE =
  'Keep this file: with it you can claim your REME with any wallet, even without this website.';

function serveClaim(details: unknown, claim: unknown) {
  serveMember(() => details, {
    '/api/claim': () => claim,
    '/api/claim/fee-balance': () => ({ ethBalance: '50000000000000000' }),
    '/rpc': () => ({ jsonrpc: '2.0', id: 1, result: '0x5208' }),
  });
}

/** The claim screen as the dashboard opens it. */
function renderClaimScreen() {
  render(
    <Providers client={createQueryClient()}>
      <MemoryRouter initialEntries={[{ pathname: '/claim', state: { fromDashboard: true } }]}>
        <AppRoutes />
      </MemoryRouter>
    </Providers>,
  );
}

/** Catches what the page saves: each object URL's Blob and each <a download> clicked. */
function catchDownloads() {
  const blobs = new Map<string, Blob>();
  const saved: Array<{ name: string; blob: Blob | undefined }> = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:kit-${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: blobs.get(this.href) });
  });
  return saved;
}

describe('the claim kit on the claim screen', () => {
  it("downloads a file that parses with the kit's schema and carries the member's proof, amount, round and the contracts", async () => {
    serveClaim(claimable, claimData);
    const saved = catchDownloads();
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Claim 200.00 REME' }));
    const button = await screen.findByRole('button', { name: 'Download claim kit' });
    expect(screen.getByText(NOTE)).toBeTruthy();
    expect(button.getAttribute('aria-describedby')).toBe(screen.getByText(NOTE).id);
    expect((button as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(button);
    expect(saved.map((s) => s.name)).toEqual(['reme-claim-kit-round-4.json']);
    expect(saved[0]!.blob!.type).toBe('application/json');
    const kit = claimKitSchema.parse(JSON.parse(await saved[0]!.blob!.text()));
    expect(kit.round).toBe(4);
    expect(kit.leaf).toEqual({
      account: member.wallet.address,
      cumulativeAmountWei: reme(350),
      cumulativeAmountReme: '350',
    });
    expect(kit.proof).toEqual(proof);
    expect(kit.claim.arguments.map((a) => a.value)).toEqual([
      member.wallet.address,
      reme(350),
      JSON.stringify(proof),
      '4',
    ]);
    expect(kit.distributor.address.toLowerCase()).toBe(links.chain.distributorAddress);
    expect(kit.token.address.toLowerCase()).toBe(links.chain.tokenAddress);
    expect(kit.chain).toEqual({ id: 31337, name: 'Local development chain', explorerUrl: null });
    expect(kit.treeUrl).toBe(`${window.location.origin}/api/distributions/4/tree.json`);
    expect(await screen.findByText('Saved reme-claim-kit-round-4.json.')).toBeTruthy();
    // Built from the answers the screen had already fetched: no second request for them.
    expect(requests.filter((r) => r === 'GET /api/claim')).toHaveLength(1);
    expect(requests.filter((r) => r === 'GET /api/config')).toHaveLength(1);
  });

  it('is disabled, saying why, when the member is in no published round', async () => {
    serveClaim(
      { ...claimable, tokens: { ...claimable.tokens, distributed: '0', forClaiming: '0' } },
      { proof: [], distributedTokens: '0', distributionIndex: 0 },
    );
    const saved = catchDownloads();
    renderClaimScreen();
    const button = (await screen.findByRole('button', {
      name: 'Download claim kit',
    })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const reason = screen.getByText(
      'There is nothing to claim yet: your claim kit will be here once you are in a published distribution round.',
    );
    expect(button.getAttribute('aria-describedby')).toBe(
      `${screen.getByText(NOTE).id} ${reason.id}`,
    );
    fireEvent.click(button);
    expect(saved).toEqual([]);
  });

  it('is disabled, saying why, when the round has been claimed already', async () => {
    serveClaim(
      { ...claimable, tokens: { ...claimable.tokens, claimed: reme(350), forClaiming: '0' } },
      claimData,
    );
    renderClaimScreen();
    const button = (await screen.findByRole('button', {
      name: 'Download claim kit',
    })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(
      screen.getByText(
        'You have already claimed your REME of round 4: a claim kit would have nothing left to claim.',
      ),
    ).toBeTruthy();
  });

  it('makes a kit for the only member of a round, whose proof is empty', async () => {
    serveClaim(claimable, { proof: [], distributedTokens: reme(200), distributionIndex: 1 });
    const saved = catchDownloads();
    renderClaimScreen();
    fireEvent.click(await screen.findByRole('button', { name: 'Download claim kit' }));
    const kit = claimKitSchema.parse(JSON.parse(await saved[0]!.blob!.text()));
    expect(kit.claim.arguments[2].value).toBe('[]');
  });
});
