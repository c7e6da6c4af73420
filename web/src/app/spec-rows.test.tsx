// Rows of the specification checked on the screens: the first-time-referral flag on the
// user-details call, the goal bonuses shown as coming soon, and the market card's ceiling.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, member, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

describe('the first-time-referral flag', () => {
  it('goes with the user-details call; the notice follows the answer to it, once', async () => {
    localStorage.setItem('refferal', 'true');
    serveMember(() => ({
      ...member,
      firstTimeReferral: requests.at(-1)!.includes('firstTimeReferral=true'),
    }));
    renderAt('/dashboard');
    expect(await screen.findByText("Congratulations you've earned 200 CAPs.")).toBeTruthy();
    expect(requests).toContain('GET /api/me?firstTimeReferral=true');
    expect(localStorage.getItem('refferal')).toBe('false');
  });

  it('shows no notice when the answer says no, and resets the flag', async () => {
    localStorage.setItem('refferal', 'true');
    serveMember(() => ({ ...member, firstTimeReferral: false }));
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: /^Hello/ });
    expect(screen.queryByText(/Congratulations you've earned/)).toBeNull();
    expect(localStorage.getItem('refferal')).toBe('false');
  });
});

describe('rcb-preload-data', () => {
  it("keeps the community pages' first data (no keystore), and Logout removes it", async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: /^Hello/ });
    const preload = JSON.parse(localStorage.getItem('rcb-preload-data')!) as Record<
      string,
      unknown
    >;
    expect(preload).toMatchObject({
      userDetails: {
        id: member.id,
        email: member.email,
        username: member.username,
        full_name: member.fullName,
        wallet: { address: member.wallet.address },
      },
      userFullName: member.fullName,
      userUid: member.id,
      referralCode: member.referralCode,
      totalBalance: member.caps.total,
    });
    expect(typeof preload.timestamp).toBe('number');
    expect(JSON.stringify(preload)).not.toContain('keystore');
    screen.getByRole('button', { name: 'Logout' }).click();
    await waitFor(() => expect(localStorage.getItem('rcb-preload-data')).toBeNull());
  });
});

describe('texts of the specification', () => {
  it('the goal bonuses (50 CAPs at 5 referrals, 100 at 10) are shown as coming soon', async () => {
    serveMember();
    renderAt('/rcb');
    expect(
      await screen.findByText(
        /Bonus of 50 CAPs at 5 referrals and 100 CAPs at 10 referrals: coming soon\./,
      ),
    ).toBeTruthy();
  });

  it('the market card says the REME above 1,000 is for swap or cash-out', async () => {
    serveMember();
    renderAt('/dashboard');
    await waitFor(() =>
      expect(
        screen.getByText(
          /Use up to 1,000 REME in the market; any REME above that is for swap or cash-out\./,
        ),
      ).toBeTruthy(),
    );
  });
});

describe('greetings', () => {
  it('use the full name, else the username, never a placeholder', async () => {
    serveMember(() => ({ ...member, fullName: '', username: 'kind-neighbour' }));
    renderAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Hello, kind-neighbour' })).toBeTruthy();
  });
});

describe('registration CAPs', () => {
  it('the tooltip says the 200 the breakdown counts, never 20', async () => {
    serveMember();
    renderAt('/dashboard');
    const info = await screen.findByRole('button', { name: 'About registration CAPs' });
    act(() => info.focus());
    expect(
      (await screen.findAllByText('200 CAPs on registering as a member')).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByText(/\b20 CAPs\b/)).toBeNull();
  });

  it('opens on a tap too (a phone has no hover), and a second tap closes it', async () => {
    serveMember();
    renderAt('/dashboard');
    const info = await screen.findByRole('button', { name: 'About registration CAPs' });
    fireEvent.click(info);
    expect(
      (await screen.findAllByText('200 CAPs on registering as a member')).length,
    ).toBeGreaterThan(0);
    fireEvent.click(info);
    await waitFor(() =>
      expect(screen.queryAllByText('200 CAPs on registering as a member')).toHaveLength(0),
    );
  });
});
