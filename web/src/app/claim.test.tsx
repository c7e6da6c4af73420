import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, member, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

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
const claimData = { proof: [], distributedTokens: reme(200), distributionIndex: 1 };
const rpcAnswer = () => ({ jsonrpc: '2.0', id: 1, result: '0x5208' });
const feeBalanceCalls = () => requests.filter((r) => r === 'GET /api/claim/fee-balance').length;

function serveClaim(feeBalance: () => unknown) {
  serveMember(() => claimable, {
    '/api/claim': () => claimData,
    '/api/claim/fee-balance': feeBalance,
    '/rpc': rpcAnswer,
  });
}

describe('the claim screen reads the ETH balance from the chain on arrival', () => {
  it('asks the server at each arrival from the dashboard, never reusing an earlier answer', async () => {
    let wei = '0';
    serveClaim(() => ({ ethBalance: wei }));
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Claim 200.00 REME' }));
    expect(await screen.findByText('0 ETH (≈ £0.00)')).toBeTruthy();
    expect(feeBalanceCalls()).toBe(1);

    wei = '50000000000000000';
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Claim 200.00 REME' }));
    expect(await screen.findByText('0.05 ETH (≈ £100.00)')).toBeTruthy();
    expect(screen.queryByText('0 ETH (≈ £0.00)')).toBeNull();
    expect(feeBalanceCalls()).toBe(2);
    // The dashboard's details carry no ETH balance any more.
    expect(JSON.stringify(claimable.tokens)).not.toContain('ethBalance');
  });

  it('says the network cannot be reached and offers no claim when the chain does not answer', async () => {
    serveClaim(
      () =>
        new Response(
          JSON.stringify({
            code: 'chain_unavailable',
            message: 'The blockchain cannot be reached right now. Please try again shortly.',
          }),
          { status: 503 },
        ),
    );
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Claim 200.00 REME' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The blockchain network cannot be reached right now, so claiming is not possible. Please try again shortly.',
    );
    expect(screen.queryByRole('button', { name: 'Complete' })).toBeNull();
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to dashboard' }));
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
  });
});

describe('the dashboard says when its REME figures may be out of date', () => {
  it('shows the last known figures with a plain note when the chain could not be reached', async () => {
    serveMember(() => ({
      ...claimable,
      tokens: {
        ...claimable.tokens,
        remeHeld: reme(300),
        asOf: { block: 41, ageSeconds: 300, chainReachable: false },
      },
    }));
    renderAt('/dashboard');
    expect((await screen.findByTestId('figures-note')).textContent).toBe(
      'Your REME figures may be out of date: the blockchain network could not be reached lately. They are as of block 41, checked 5 minutes ago.',
    );
    expect(screen.getByTestId('reme-balance').textContent).toBe('300.00');
    expect(screen.getByTestId('tokens-to-claim').textContent).toBe('200.00');
  });

  it('shows no note while the figures are current, and one once they are older than a minute', async () => {
    let asOf = { block: 41, ageSeconds: 4, chainReachable: true };
    serveMember(() => ({ ...member, tokens: { ...member.tokens, asOf } }));
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(screen.queryByTestId('figures-note')).toBeNull();
    asOf = { block: 41, ageSeconds: 61, chainReachable: true };
    window.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() =>
      expect(screen.getByTestId('figures-note').textContent).toContain('checked 61 seconds ago'),
    );
  });
});
