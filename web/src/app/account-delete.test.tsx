// The account page's deletion: nothing is sent before both confirmation questions are
// answered; then the member is signed out to the start page, or told why it failed.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

async function askToDelete() {
  await screen.findByRole('heading', { name: 'Account and security' });
  fireEvent.change(screen.getByLabelText('Your password', { selector: 'input' }), {
    target: { value: 'Caring-Friends-9' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
}
/** The account page's security section, which the page loads beside the deletion form. */
const security = () => ({ twoFactorEnabled: false, sessions: [] });
const deletions = () => requests.filter((r) => r === 'DELETE /api/account').length;

describe('delete my account', () => {
  it('asks twice before sending anything, then signs out to the start page', async () => {
    serveMember(undefined, {
      '/api/account': () => ({ ok: true }),
      '/api/account/security': security,
    });
    const router = renderAt('/account');
    await askToDelete();
    expect(
      (await screen.findByRole('alertdialog', { name: 'Delete your account?' })).textContent,
    ).toContain('Are you sure you want to delete your account? This action cannot be undone.');
    fireEvent.click(screen.getByRole('button', { name: 'Yes, continue' }));
    expect(
      (await screen.findByRole('alertdialog', { name: 'Delete all your data?' })).textContent,
    ).toContain('This will permanently delete all your data. Are you absolutely sure?');
    expect(deletions()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete permanently' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 10_000 });
    expect(deletions()).toBe(1);
    expect(localStorage.getItem('allowed')).toBeNull();
  });

  it('Cancel at the second question sends nothing', async () => {
    serveMember(undefined, {
      '/api/account': () => ({ ok: true }),
      '/api/account/security': security,
    });
    renderAt('/account');
    await askToDelete();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, continue' }));
    await screen.findByRole('alertdialog', { name: 'Delete all your data?' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(deletions()).toBe(0);
  });

  it('a refusal is shown as "Failed to delete account: <reason>" and the member stays', async () => {
    serveMember(undefined, {
      '/api/account/security': security,
      '/api/account': () =>
        new Response(
          JSON.stringify({
            code: 'wrong_password',
            message: 'Your current password is not correct.',
          }),
          { status: 403 },
        ),
    });
    const router = renderAt('/account');
    await askToDelete();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete permanently' }));
    const alerts = await screen.findAllByText(
      'Failed to delete account: Your current password is not correct.',
      {},
      { timeout: 10_000 },
    );
    expect(alerts.length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/account');
  });
});
