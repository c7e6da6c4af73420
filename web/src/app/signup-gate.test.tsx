// The sign-up gate on the forms (docs/security.md#the-sign-up-gate): solved while the member types
// and sent with the form; while still solving, the button is busy and nothing else shows; when it
// cannot be had, a plain message says what to do; a solution the server refuses is replaced
// without the member doing anything.
import type { GatePass } from '@crw/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, fill, GATE_ANSWER, renderAt, serveVisitor } from '../test-fixtures';
import { json } from '../test-network';

appTestHooks();

const CANNOT_RUN =
  'The security check could not run. Check your connection, then press the button again. If it keeps failing, reload the page.';

/** The bodies of the reset requests the screen sent. */
function serveReset(answers: Array<() => Response | object> = []) {
  const sent: GatePass[] = [];
  const asked = serveVisitor();
  const served = globalThis.fetch;
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    if (String(url) === '/auth/request-password-reset') {
      asked.push(`POST ${String(url)}`);
      sent.push((JSON.parse(String(init?.body)) as { gate: GatePass }).gate);
      const answer = answers[sent.length - 1]?.() ?? { status: true };
      return answer instanceof Response ? answer : json(answer);
    }
    return served(url, init);
  });
  return { sent, asked };
}

/** Holds the gate's challenges back until `release()` (or answers them with `failWith`). */
function holdChallenges() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { failWith: null as Response | null, fetched: 0 };
  const served = globalThis.fetch;
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    if (String(url).startsWith('/api/signup-gate/challenge')) {
      state.fetched += 1;
      if (state.failWith) return state.failWith.clone();
      await released;
    }
    return served(url, init);
  });
  return { release, state };
}

async function openResetForm() {
  renderAt('/');
  await screen.findByRole('heading', { name: 'Welcome back' });
  fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
  await screen.findByRole('heading', { name: 'Reset your password' });
  fill('Email', 'ada@example.test');
}

const sendButton = () => screen.getByRole('button', { name: 'Send reset link' });
const SENT = 'Password reset email sent. Check your inbox for the link.';

describe('the sign-up gate on a form', () => {
  it('solved while the member types: the request carries the solution for its own form', async () => {
    const { sent, asked } = serveReset();
    await openResetForm();
    // The challenge was asked for as the form opened, before anything was pressed.
    await waitFor(() => expect(asked).toContain('GET /api/signup-gate/challenge?form=reset'));
    fireEvent.click(sendButton());
    expect((await screen.findByRole('status')).textContent).toBe(SENT);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.challenge.parameters.data.form).toBe('reset');
    expect(sent[0]!.solution.counter).toBe(GATE_ANSWER);
    expect(sent[0]!.solution.derivedKey).toMatch(/^[0-9a-f]{64}$/);
    expect(asked.filter((r) => r.startsWith('GET /api/signup-gate/'))).toHaveLength(1);
  });

  it('still solving when pressed: the button is busy, nothing else shows, then the request goes', async () => {
    const { sent } = serveReset();
    const hold = holdChallenges();
    await openResetForm();
    fireEvent.click(sendButton());
    await waitFor(() => expect(sendButton().getAttribute('aria-busy')).toBe('true'));
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/security|robot|puzzle|captcha/i)).toBeNull();
    hold.release();
    expect((await screen.findByRole('status')).textContent).toBe(SENT);
    expect(sent).toHaveLength(1);
    expect(sendButton().getAttribute('aria-busy')).toBeNull();
  });

  it('cannot be had (no challenge): a plain message says what to do, and nothing is sent; once it can, pressing again sends', async () => {
    const { sent } = serveReset();
    const hold = holdChallenges();
    hold.state.failWith = json({ code: 'service_unavailable', message: 'Down.' }, 503);
    await openResetForm();
    fireEvent.click(sendButton());
    expect((await screen.findByRole('alert')).textContent).toBe(CANNOT_RUN);
    expect(sent).toHaveLength(0);
    expect(sendButton().getAttribute('aria-busy')).toBeNull();
    // Solved ahead once, then tried again as the button was pressed.
    expect(hold.state.fetched).toBe(2);

    hold.state.failWith = null;
    hold.release();
    fireEvent.click(sendButton());
    expect((await screen.findByRole('status')).textContent).toBe(SENT);
    expect(sent).toHaveLength(1);
  });

  it('too many challenges from this address: the limit’s own message', async () => {
    serveReset();
    const hold = holdChallenges();
    hold.state.failWith = json(
      { code: 'rate_limited', message: 'Too many attempts. Please try again in 10 minutes.' },
      429,
    );
    await openResetForm();
    fireEvent.click(sendButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please try again in 10 minutes.',
    );
  });

  it('refused by the server (it expired while the page was open): solved again and sent once more, unseen', async () => {
    const { sent, asked } = serveReset([
      () =>
        json(
          {
            code: 'gate_expired',
            message: 'The security check ran out of time. Please try again.',
          },
          400,
        ),
    ]);
    await openResetForm();
    fireEvent.click(sendButton());
    expect((await screen.findByRole('status')).textContent).toBe(SENT);
    expect(sent).toHaveLength(2);
    expect(asked.filter((r) => r.startsWith('GET /api/signup-gate/'))).toHaveLength(2);
  });

  it('refused twice: the server’s plain message', async () => {
    const used = () =>
      json(
        { code: 'gate_used', message: 'This security check was already used. Please try again.' },
        400,
      );
    const { sent } = serveReset([used, used]);
    await openResetForm();
    fireEvent.click(sendButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This security check was already used. Please try again.',
    );
    expect(sent).toHaveLength(2);
  });

  it('the sign-up forms solve theirs as they open, for registration', async () => {
    const asked = serveVisitor();
    renderAt('/register');
    await screen.findByRole('button', { name: 'Create account' });
    await waitFor(() => expect(asked).toContain('GET /api/signup-gate/challenge?form=register'));
    expect(screen.queryByText(/security|robot|puzzle|captcha/i)).toBeNull();
  });

  it('signing in asks for no challenge; the Resend confirmation e-mail button brings one for the resend', async () => {
    const asked = serveVisitor({
      '/auth/sign-in/email': () =>
        json(
          {
            code: 'email_not_confirmed',
            message: 'Please check your email and click the confirmation link before signing in.',
          },
          403,
        ),
      '/auth/send-verification-email': () => ({ status: true }),
    });
    renderAt('/');
    await screen.findByRole('heading', { name: 'Welcome back' });
    fill('Email', 'ada@example.test');
    fill('Password', 'correct horse battery');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('button', { name: 'Resend confirmation e-mail' });
    await waitFor(() =>
      expect(asked.filter((r) => r.includes('signup-gate'))).toEqual([
        'GET /api/signup-gate/challenge?form=resend',
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation e-mail' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Confirmation email resent. Please check your inbox and spam folder.',
    );
  });
});
