// Every message the account forms give before asking the server (docs/product.md, "Messages"),
// exactly; each under the field it is about, which is marked invalid and described by it, and
// nothing sent. The messages the server's answers bring are the journeys' (e2e/journeys/messages).
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  appTestHooks,
  expectFieldError,
  field,
  fill,
  renderAt,
  serveVisitor,
} from '../test-fixtures';

appTestHooks();

/** Only what any screen loads on arrival (the sign-up gate's challenge among it): the form's own
 * check asks the server nothing. */
const quiet = (asked: string[]) =>
  asked.filter(
    (r) =>
      !/^GET \/api\/(config|me)$/.test(r) &&
      !r.startsWith('GET /auth/') &&
      !r.startsWith('GET /api/signup-gate/challenge?'),
  );

async function signIn(email: string, password: string) {
  const asked = serveVisitor();
  renderAt('/');
  await screen.findByRole('heading', { name: 'Welcome back' });
  fill('Email', email);
  fill('Password', password);
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  return asked;
}

async function authSignUp(email: string, password: string, confirm: string) {
  const asked = serveVisitor();
  renderAt('/signup');
  await screen.findByRole('heading', { name: 'Create your account' });
  fill('Email', email);
  fill('Password', password);
  fill('Confirm password', confirm);
  fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
  return asked;
}

async function register(fields: {
  first?: string;
  last?: string;
  email?: string;
  password: string;
  confirm: string;
}) {
  const asked = serveVisitor();
  renderAt('/register');
  await screen.findByRole('button', { name: 'Create account' });
  fill('First name (optional)', fields.first ?? 'Ada');
  fill('Last name (optional)', fields.last ?? 'Lovelace');
  fill('Email', fields.email ?? 'reg@example.test');
  fill('Password', fields.password);
  fill('Confirm password', fields.confirm);
  fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
  return asked;
}

describe('sign-in', () => {
  it("'Email address is required', and only the Email field is marked", async () => {
    const asked = await signIn('', 'whatever');
    await expectFieldError('Email', 'Email address is required');
    expect(field('Password').getAttribute('aria-invalid')).toBeNull();
    expect(quiet(asked)).toEqual([]);
  });

  it("'Password is required'", async () => {
    const asked = await signIn('someone@example.test', '');
    await expectFieldError('Password', 'Password is required');
    expect(quiet(asked)).toEqual([]);
  });
});

describe('the sign-up card', () => {
  it("'Please enter a valid email address'", async () => {
    const asked = await authSignUp('not-an-email', 'secret12', 'secret12');
    await expectFieldError('Email', 'Please enter a valid email address');
    expect(quiet(asked)).toEqual([]);
  });

  it("'Password must be at least 8 characters long', the rule said under the field before anything is typed", async () => {
    const asked = await authSignUp('a@example.test', '1234567', '1234567');
    await expectFieldError('Password', 'Password must be at least 8 characters long');
    expect(quiet(asked)).toEqual([]);
  });

  it("'Passwords do not match'", async () => {
    const asked = await authSignUp('a@example.test', 'secret12', 'secret13');
    await expectFieldError('Confirm password', 'Passwords do not match');
    expect(quiet(asked)).toEqual([]);
  });
});

describe('/register: the same form, every problem at once', () => {
  it('says each wrong field under it together, and sends nothing', async () => {
    const asked = await register({ email: ' ', password: '1234567', confirm: 'other' });
    await expectFieldError('Email', 'Email address is required');
    await expectFieldError('Password', 'Password must be at least 8 characters long');
    await expectFieldError('Confirm password', 'Passwords do not match');
    expect(screen.getAllByRole('alert')).toHaveLength(3);
    expect(quiet(asked)).toEqual([]);
  });

  it('names are optional; the password rule is said before anything is typed', async () => {
    const asked = await register({
      first: '',
      last: '',
      password: '12345678',
      confirm: '12345679',
    });
    await expectFieldError('Confirm password', 'Passwords do not match');
    expect(field('First name (optional)').getAttribute('aria-invalid')).toBeNull();
    const hint = field('Password').getAttribute('aria-describedby')!.split(' ')[0]!;
    expect(document.getElementById(hint)!.textContent).toBe(
      'At least 8 characters. It also locks your wallet on this device.',
    );
    expect(screen.getByText(/By creating an account you agree to the/)).toBeTruthy();
    expect(quiet(asked)).toEqual([]);
  });
});

it("a new password after a reset needs 8 characters too ('Password must be at least 8 characters long')", async () => {
  const asked = serveVisitor();
  renderAt('/reset-password?token=unchecked-until-sent&email=a%40example.test');
  await screen.findByRole('button', { name: 'Save new password' });
  fill('New password', '1234567');
  fill('Confirm new password', '1234567');
  fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
  await expectFieldError('New password', 'Password must be at least 8 characters long');
  expect(quiet(asked)).toEqual([]);
});
