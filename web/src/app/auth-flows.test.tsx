// The account screens' fixes, on the screens: a referral link's code checked on arrival, a
// confirmation link that did not work explained, no dead ends for a signed-in member, and forms
// that mark the field in error.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  appTestHooks,
  expectFieldError,
  fill,
  renderAt,
  serveMember,
  serveVisitor,
} from '../test-fixtures';

appTestHooks();

describe('a referral link is checked as it opens', () => {
  it("a member's code: names the inviter and what each of them really gets", async () => {
    serveVisitor({ '/api/referrals/codes/GOOD2345': () => ({ valid: true, inviter: 'Alice' }) });
    renderAt('/r/GOOD2345');
    expect((await screen.findByText(/invited you/)).textContent).toBe(
      'Alice invited you. You get 200 CAPs for joining; Alice gets 100 when you confirm your e-mail.',
    );
    expect(screen.queryByText(/bonus/)).toBeNull();
    expect(screen.getByLabelText('Email', { selector: 'input' })).toBeTruthy();
    // The one sign-up form, with its terms consent, as on /register.
    expect(screen.getByText(/By creating an account you agree to the/)).toBeTruthy();
    expect(screen.getByLabelText('First name (optional)', { selector: 'input' })).toBeTruthy();
  });

  it("a member's code whose owner gave no name: 'A member invited you'", async () => {
    serveVisitor({ '/api/referrals/codes/GOOD2345': () => ({ valid: true, inviter: null }) });
    renderAt('/r/GOOD2345');
    expect((await screen.findByText(/invited you/)).textContent).toBe(
      'A member invited you. You get 200 CAPs for joining; they get 100 when you confirm your e-mail.',
    );
  });

  it('an unknown code: said at once, no form, and a button that drops the code', async () => {
    serveVisitor({ '/api/referrals/codes/NOSUCH42': () => ({ valid: false }) });
    const router = renderAt('/r/NOSUCH42');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Referral code NOSUCH42 does not belong to any member. Check the link with the friend who sent it, or join without a code.',
    );
    expect(screen.queryByText(/applied/)).toBeNull();
    expect(screen.queryByLabelText('Email', { selector: 'input' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue without a referral code' }));
    expect(await screen.findByLabelText('Email', { selector: 'input' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  it('a check that fails does not claim the code was applied', async () => {
    serveVisitor({
      '/api/referrals/codes/GOOD2345': () =>
        new Response(JSON.stringify({ code: 'rate_limited', message: 'Too many attempts.' }), {
          status: 429,
        }),
    });
    renderAt('/r/GOOD2345');
    expect((await screen.findByText(/will be checked/)).textContent).toBe(
      'Referral code GOOD2345 will be checked when you create your account.',
    );
    expect(screen.getByLabelText('Email', { selector: 'input' })).toBeTruthy();
  });
});

describe('a confirmation link that did not work is explained', () => {
  it.each([
    ['INVALID_TOKEN', /^This confirmation link does not work/],
    ['TOKEN_EXPIRED', /^This confirmation link has expired/],
    ['USER_NOT_FOUND', /^This confirmation link does not work/],
  ])('?error=%s: what happened, and Resend confirmation e-mail', async (code, text) => {
    localStorage.setItem('allowed', 'true');
    serveVisitor();
    const router = renderAt(`/?confirmed=true&error=${code}`);
    expect((await screen.findByRole('alert')).textContent).toMatch(text);
    expect(screen.getByRole('button', { name: 'Resend confirmation e-mail' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a link with no session to open (used before, or another browser): confirmed, sign in', async () => {
    serveVisitor();
    renderAt('/?confirmed=true');
    expect((await screen.findByRole('status')).textContent).toBe(
      'Your e-mail address is confirmed. Sign in to open your wallet.',
    );
    // A new member has never been here: "Welcome", not "Welcome back".
    expect(screen.getByRole('heading', { name: 'Welcome' })).toBeTruthy();
  });
});

describe('no dead ends for a signed-in member', () => {
  it('/ sends a signed-in member to the dashboard', async () => {
    serveMember();
    const router = renderAt('/');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('/ keeps the sign-in card when the allowed flag has no session behind it', async () => {
    localStorage.setItem('allowed', 'true');
    serveVisitor();
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
  });

  it('/mnemonic without a phrase (Back after confirming) leaves a signed-in member signed in', async () => {
    serveMember();
    const router = renderAt('/mnemonic');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(localStorage.getItem('allowed')).toBe('true');
  });
});

describe('forms mark the field in error', () => {
  it('the message sits under its field, which is aria-invalid and described by it', async () => {
    serveVisitor();
    renderAt('/signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    fill('Email', 'ada@example.test');
    fill('Password', 'short12');
    fill('Confirm password', 'short12');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe('Password must be at least 8 characters long');
    const password = screen.getByLabelText('Password', { selector: 'input' });
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')!.split(' ')).toContain(message.id);
    expect(
      screen.getByLabelText('Email', { selector: 'input' }).getAttribute('aria-invalid'),
    ).toBeNull();
  });

  it('a taken e-mail is said before any wallet is made, on the Email field', async () => {
    const asked = serveVisitor({
      '/api/register/check': () =>
        new Response(
          JSON.stringify({
            code: 'email_taken',
            message: 'An account with this email already exists. Please sign in instead.',
          }),
          { status: 409 },
        ),
    });
    renderAt('/signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    fill('Email', 'taken@example.test');
    fill('Password', 'long-enough-1');
    fill('Confirm password', 'long-enough-1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe(
      'An account with this email already exists. Please try signing in instead.',
    );
    expect(
      screen.getByLabelText('Email', { selector: 'input' }).getAttribute('aria-describedby'),
    ).toBe(message.id);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create account' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
    expect(asked).toContain('POST /api/register/check');
    expect(asked.some((r) => r.includes('/api/wallet/challenge'))).toBe(false);
  });

  it.each(['/signup', '/register'])(
    '%s: a throwaway address is said before any wallet is made, on the Email field',
    async (path) => {
      const text =
        'Addresses from throwaway e-mail services cannot be used here. Please use an e-mail address you keep.';
      const asked = serveVisitor({
        '/api/register/check': () =>
          new Response(JSON.stringify({ code: 'disposable_email', message: text }), {
            status: 400,
          }),
      });
      renderAt(path);
      const submit = path === '/signup' ? 'Create account' : 'Create account';
      await screen.findByRole('button', { name: submit });
      if (path === '/register') {
        fill('First name (optional)', 'Ada');
        fill('Last name (optional)', 'Lovelace');
      }
      fill('Email', 'someone@mailinator.com');
      fill('Password', 'long-enough-1');
      fill('Confirm password', 'long-enough-1');
      fireEvent.click(screen.getByRole('button', { name: submit }));
      await expectFieldError('Email', text);
      expect(asked.some((r) => r.includes('/api/wallet/challenge'))).toBe(false);
    },
  );
});
