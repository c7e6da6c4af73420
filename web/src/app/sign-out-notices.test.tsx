// Signing out says one true thing: the tab that pressed Logout hears its own "signed out" (from
// its event stream and the browser's channel) and says nothing alarming; another tab of the same
// browser says "You signed out in another tab." once, never "from another place".
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SIGNED_OUT_ELSEWHERE } from '../lib/member-events';
import { appTestHooks, eventSources, member, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

const ELSEWHERE = SIGNED_OUT_ELSEWHERE.split('.')[0]!;
const OTHER_TAB = 'You signed out in another tab.';

/** The member is signed in until `signedOut.now` is set, then /api/me answers 401. */
function serveUntilSignedOut() {
  const signedOut = { now: false };
  serveMember(() =>
    signedOut.now
      ? new Response(JSON.stringify({ code: 'unauthorized', message: 'Not signed in' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        })
      : member,
  );
  return signedOut;
}

/** A little time for the stream's recheck and the toasts to land. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 300)));

describe('signing out', () => {
  it('Logout here: one plain line; its own stream and channel are not news, so no warning shows', async () => {
    const signedOut = serveUntilSignedOut();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: /^Hello/ });
    const stream = eventSources.at(-1)!;
    signedOut.now = true;
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    // The server's echo of this tab's own sign-out, as its event stream brings it.
    act(() => void stream.dispatchEvent(new Event('signed-out')));
    await screen.findByRole('heading', { name: 'Welcome back' });
    await settle();
    // Said. That it is said once is the journey's check in a real browser (account-security.spec's
    // strict locator): here the web project's files share modules (isolate: false), sonner's toast
    // store among them, so a count can take in another file's Logout toast.
    expect(screen.getAllByText('You signed out.').length).toBeGreaterThan(0);
    expect(screen.queryByText(new RegExp(ELSEWHERE))).toBeNull();
    expect(screen.queryByText(OTHER_TAB)).toBeNull();
  });

  it('Logout in another tab: one notice that says so, not "from another place"', async () => {
    const signedOut = serveUntilSignedOut();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: /^Hello/ });
    const stream = eventSources.at(-1)!;
    signedOut.now = true;
    // The other tab clears the browser's flags and tells this one; the server's event follows.
    localStorage.removeItem('allowed');
    const channel = new BroadcastChannel('crw-auth');
    channel.postMessage({ type: 'signed-out', from: 'another-tab' });
    channel.close();
    act(() => void stream.dispatchEvent(new Event('signed-out')));
    await waitFor(() => expect(screen.getAllByText(OTHER_TAB)).toHaveLength(1));
    await settle();
    expect(screen.getAllByText(OTHER_TAB)).toHaveLength(1);
    expect(screen.queryByText(new RegExp(ELSEWHERE))).toBeNull();
  });
});
