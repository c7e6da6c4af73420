// The claim screen says whether the wallet's ETH covers the fee before it asks
// for the password, and sees ETH that arrives while it is open; the insufficient-balance screen
// speaks of test ETH and a faucet on a test network, of buying ETH elsewhere.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, links, member, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks({ fakeClock: true });

const reme = (n: number) => (BigInt(n) * 10n ** 18n).toString();
const claimable = {
  ...member,
  tokens: {
    ...member.tokens,
    distributed: reme(200),
    forClaiming: reme(200),
    claimSplit: { signup: reme(200), referral: '0' },
  },
};
// eth_estimateGas and eth_gasPrice both answer 10,000,000: a fee of 10^14 wei, 0.0001 ETH (£0.20 at £2,000).
const rpc = () => ({ jsonrpc: '2.0', id: 1, result: '0x989680' });
const claimData = () => ({ proof: [], distributedTokens: reme(200), distributionIndex: 1 });
const feeBalanceCalls = () => requests.filter((r) => r === 'GET /api/claim/fee-balance').length;

function serveClaim(wei: () => string, eth: Partial<typeof links.eth> = {}, sponsored = false) {
  serveMember(() => claimable, {
    '/api/claim': claimData,
    '/api/claim/fee-balance': () => ({ ethBalance: wei() }),
    '/api/claim/sponsored': () => ({
      available: sponsored,
      reason: sponsored ? null : 'This community does not pay claim fees for its members.',
      latest: null,
    }),
    '/api/config': () => ({ ...links, eth: { ...links.eth, ...eth } }),
    '/rpc': rpc,
  });
}

async function openClaim() {
  renderAt('/dashboard');
  fireEvent.click(await screen.findByRole('button', { name: 'Claim 200.00 REME' }));
  await screen.findByRole('heading', { name: /^Claim \d+\.\d\d REME$/ });
}

describe('the claim screen checks the fee against the ETH before asking for the password', () => {
  it('with too little ETH says how much is missing, in a few digits with its £ value, and asks for no password', async () => {
    serveClaim(() => '0');
    await openClaim();
    expect((await screen.findByTestId('fee-check')).textContent).toContain(
      'Your wallet needs 0.0001 test ETH (≈ £0.20) more to pay the fee',
    );
    expect(screen.getByText('0.0001 ETH (≈ £0.20)')).toBeTruthy(); // the fee, never 18 decimals
    expect(screen.getByText('200.00 REME (≈ £20.00)')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Complete' })).toBeNull();
    expect(
      screen.getByText(/This is a test network: the fee is paid in test ETH, which is free/),
    ).toBeTruthy();
  });

  it('reads the balance again while it is short, and asks for the password once the ETH has arrived', async () => {
    let wei = '0';
    serveClaim(() => wei);
    await openClaim();
    await screen.findByText(/Your wallet needs/);
    const before = feeBalanceCalls();
    wei = reme(1); // 1 ETH arrives while the screen is open
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    await waitFor(() =>
      expect(screen.getByTestId('fee-check').textContent).toBe('Your ETH covers the fee.'),
    );
    expect(feeBalanceCalls()).toBeGreaterThan(before);
    expect(screen.getByText('1 ETH (≈ £2,000.00)')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    // Covered: no more reads.
    const settled = feeBalanceCalls();
    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(feeBalanceCalls()).toBe(settled);
  });

  it('asks for the password with no fee check when the community pays the fee, whatever the ETH', async () => {
    serveClaim(() => '0', {}, true);
    await openClaim();
    expect(await screen.findByText('Free — your community pays the fee')).toBeTruthy();
    expect(screen.queryByTestId('fee-check')).toBeNull();
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });
});

describe('how to add ETH (the insufficient-balance screen)', () => {
  async function openHowTo() {
    await openClaim();
    fireEvent.click(await screen.findByRole('button', { name: 'How to add ETH' }));
    await screen.findByRole('heading', { name: 'ETH balance insufficient' });
  }

  it('on a test network with a faucet: free test ETH from the faucet, never "Buy ETH"', async () => {
    serveClaim(() => '0', { faucetUrl: 'https://faucet.example.org' });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    await openHowTo();
    expect(screen.getByText(/a network fee of about/).textContent).toContain(
      '0.0001 test ETH (≈ £0.20)',
    );
    expect(
      screen.getByText(/This is a test network, so the ETH you need is test ETH, which is free/),
    ).toBeTruthy();
    expect(screen.queryByText(/Buy ETH/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Learn how to do that' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Get free test ETH' }));
    expect(open).toHaveBeenCalledWith(
      'https://faucet.example.org',
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('on a test network without a faucet: ask the organisers', async () => {
    serveClaim(() => '0');
    await openHowTo();
    expect(
      screen.getByText(/Ask your community's organisers to send some to your wallet address below/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Get free test ETH' })).toBeNull();
  });

  it('on a network whose ETH is bought: "Buy ETH" and how to do that', async () => {
    serveClaim(() => '0', { testNetwork: false });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    await openHowTo();
    expect(screen.getByText(/a network fee of about/).textContent).toContain(
      '0.0001 ETH (≈ £0.20)',
    );
    expect(
      screen.getByText('Buy ETH and send it to your wallet address below, then claim again.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Learn how to do that' }));
    expect(open).toHaveBeenCalledWith(links.chain.exchangeUrl, '_blank', 'noopener,noreferrer');
  });
});
