// The install card: after the first claim only, with the browser's own install dialog where there is
// one and the share-sheet steps on an iPhone; closed for good on this device; never in the app.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catchInstallPrompt } from '../lib/install-prompt';
import { appTestHooks, member, renderAt, serveMember } from '../test-fixtures';

appTestHooks();
catchInstallPrompt();

const claimed = { ...member, tokens: { ...member.tokens, claimed: '200000000000000000000' } };
const notClaimed = { ...member, tokens: { ...member.tokens, claimed: '0' } };

/** What Chrome fires when the app can be installed. */
function offerInstall(outcome: 'accepted' | 'dismissed') {
  const prompt = vi.fn(async () => undefined);
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt,
    userChoice: Promise.resolve({ outcome }),
  });
  window.dispatchEvent(event);
  return { prompt, event };
}

afterEach(() => {
  localStorage.removeItem('install-card-dismissed');
  window.dispatchEvent(new Event('appinstalled')); // forget an offer left over
});

describe('the install card', () => {
  it('is not offered before the first claim', async () => {
    offerInstall('accepted');
    serveMember(() => notClaimed);
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(
      screen.queryByRole('region', { name: 'Keep your wallet on your home screen' }),
    ).toBeNull();
  });

  it("after a claim, Install asks the browser's own dialog, and an install closes the card", async () => {
    const { prompt, event } = offerInstall('accepted');
    expect(event.defaultPrevented).toBe(true); // not the browser's own mini-bar
    serveMember(() => claimed);
    renderAt('/dashboard');
    const card = within(
      await screen.findByRole('region', { name: 'Keep your wallet on your home screen' }),
    );
    fireEvent.click(card.getByRole('button', { name: 'Install the app' }));
    expect(prompt).toHaveBeenCalledOnce();
    await waitFor(() =>
      expect(
        screen.queryByRole('region', { name: 'Keep your wallet on your home screen' }),
      ).toBeNull(),
    );
  });

  it('Not now closes it for good on this device', async () => {
    offerInstall('dismissed');
    serveMember(() => claimed);
    renderAt('/dashboard');
    const region = await screen.findByRole('region', {
      name: 'Keep your wallet on your home screen',
    });
    fireEvent.click(within(region).getByRole('button', { name: 'Not now' }));
    expect(
      screen.queryByRole('region', { name: 'Keep your wallet on your home screen' }),
    ).toBeNull();
    expect(localStorage.getItem('install-card-dismissed')).toBe('true');
  });

  it('on an iPhone, says the share-sheet steps (Safari cannot be asked)', async () => {
    const agent = vi
      .spyOn(navigator, 'userAgent', 'get')
      .mockReturnValue(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
      );
    try {
      serveMember(() => claimed);
      renderAt('/dashboard');
      const card = within(
        await screen.findByRole('region', { name: 'Keep your wallet on your home screen' }),
      );
      expect(card.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
        'Tap Share  (the square with an arrow) at the foot of Safari.',
        'Choose “Add to Home Screen”, then Add.',
      ]);
      expect(card.queryByRole('button', { name: 'Install the app' })).toBeNull();
      expect(card.getByRole('button', { name: 'Done' })).toBeTruthy();
    } finally {
      agent.mockRestore();
    }
  });

  it('is not offered where the browser cannot install and it is no iPhone', async () => {
    serveMember(() => claimed);
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(
      screen.queryByRole('region', { name: 'Keep your wallet on your home screen' }),
    ).toBeNull();
  });
});
