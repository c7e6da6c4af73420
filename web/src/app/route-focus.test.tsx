// After a navigation the tab's title names the screen and focus is on its heading (a screen reader
// announces the new page); a first load keeps the browser's focus.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, renderAt, serveMember } from '../test-fixtures';
import { screenTitle } from './route-focus';

appTestHooks();

describe('each screen names itself', () => {
  it('sets the title on load without moving focus, then focuses the next screen’s heading', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(document.title).toBe('Your wallet · REME Wallet');
    expect(document.activeElement).toBe(document.body);
    fireEvent.click(screen.getByRole('link', { name: /Care Finance Hub/ }));
    const heading = await screen.findByRole('heading', { name: 'Convert CAPs', level: 1 });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(document.title).toBe('Convert CAPs · REME Wallet');
  });

  it('names every route, and anything else as not found', () => {
    expect(screenTitle('/')).toBe('Sign in');
    expect(screenTitle('/r/ABC123')).toBe('Create account');
    expect(screenTitle('/operator/members')).toBe('Operator console');
    expect(screenTitle('/recovery-phrase')).toBe('Recovery phrase');
    expect(screenTitle('/nope')).toBe('Page not found');
  });
});
