// One Share button for the referral link: the phone's share sheet where the browser has one,
// otherwise the link copied ("Link copied"); the link stays in sight as text.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReferralLink } from './referral-link';

const LINK = 'https://wallet.example/r/ABCD1234';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubNavigator(extra: Record<string, unknown>) {
  const writeText = vi.fn(() => Promise.resolve());
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText }, ...extra });
  return writeText;
}

describe('ReferralLink', () => {
  it('has one button, Share, and the whole link in sight', () => {
    stubNavigator({});
    render(<ReferralLink link={LINK} />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Share']);
    expect(screen.getByLabelText('Your referral link').textContent).toBe(LINK);
  });

  it('opens the share sheet where the browser has one', async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = stubNavigator({ share, canShare: () => true });
    render(<ReferralLink link={LINK} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: LINK }));
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link where it has none, and says so', async () => {
    const writeText = stubNavigator({ share: undefined });
    render(<ReferralLink link={LINK} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(screen.getByRole('button', { name: 'Link copied' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Link copied');
  });
});
