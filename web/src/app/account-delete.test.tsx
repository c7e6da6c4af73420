// The account page's deletion: the member's own figures and "Claim first" when there is REME to
// claim; nothing is sent before the one specific confirmation (DELETE typed); then the member is
// signed out to the start page, or told why it failed.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, member, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

async function askToDelete() {
  await screen.findByRole('heading', { name: 'Account and security' });
  fireEvent.change(screen.getByLabelText('Your password', { selector: 'input' }), {
    target: { value: 'Caring-Friends-9' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
  return screen.findByRole('alertdialog', { name: 'Delete your account for good?' });
}
const typeWord = (dialog: HTMLElement, word: string) =>
  fireEvent.change(within(dialog).getByLabelText('Type DELETE to confirm', { selector: 'input' }), {
    target: { value: word },
  });
/** The account page's security section, which the page loads beside the deletion form. */
const security = () => ({ twoFactorEnabled: false, sessions: [] });
const deletions = () => requests.filter((r) => r === 'DELETE /api/account').length;
const withReme = {
  ...member,
  caps: { ...member.caps, careActions: 30, convertible: 30, total: 380 },
  tokens: {
    ...member.tokens,
    forClaiming: '350000000000000000000',
    incoming: '25000000000000000000',
  },
};

describe('delete my account', () => {
  it('with REME to claim: says the amounts, offers Claim first, and names them in the confirmation', async () => {
    serveMember(() => withReme, { '/api/account/security': security });
    renderAt('/account');
    const section = await screen.findByRole('region', { name: 'Delete account' });
    expect(within(section).getByTestId('claim-first').textContent).toContain(
      'You have 350.00 REME to claim. Claim them first',
    );
    expect(within(section).getByRole('link', { name: 'Claim first' }).getAttribute('href')).toBe(
      '/claim',
    );
    expect(section.textContent).toContain(
      'You give up 350.00 REME you can claim now, 25.00 REME coming in the next payout, 30 care CAPs not converted.',
    );
    const dialog = await askToDelete();
    expect(dialog.textContent).toContain(
      'You give up 350.00 REME you can claim now, 25.00 REME coming in the next payout, 30 care CAPs not converted. This cannot be undone.',
    );
  });

  it('with nothing waiting: no Claim first', async () => {
    serveMember(undefined, { '/api/account/security': security });
    renderAt('/account');
    const section = await screen.findByRole('region', { name: 'Delete account' });
    expect(within(section).queryByTestId('claim-first')).toBeNull();
    expect(section.textContent).toContain('You have nothing waiting to be claimed or converted.');
  });

  it('sends nothing until DELETE is typed, then signs out to the start page', async () => {
    serveMember(undefined, {
      '/api/account': () => ({ ok: true }),
      '/api/account/security': security,
    });
    const router = renderAt('/account');
    const dialog = await askToDelete();
    const destroy = within(dialog).getByRole('button', { name: 'Delete permanently' });
    // A second press where the first button was does nothing: the last step needs the word.
    expect((destroy as HTMLButtonElement).disabled).toBe(true);
    typeWord(dialog, 'delete please');
    expect((destroy as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(destroy);
    expect(deletions()).toBe(0);
    typeWord(dialog, 'DELETE');
    expect((destroy as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(destroy);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 10_000 });
    expect(deletions()).toBe(1);
    expect(localStorage.getItem('allowed')).toBeNull();
  });

  it('Keep my account sends nothing', async () => {
    serveMember(undefined, {
      '/api/account': () => ({ ok: true }),
      '/api/account/security': security,
    });
    renderAt('/account');
    const dialog = await askToDelete();
    typeWord(dialog, 'DELETE');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
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
    const dialog = await askToDelete();
    typeWord(dialog, 'DELETE');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));
    const alerts = await screen.findAllByText(
      'Failed to delete account: Your current password is not correct.',
      {},
      { timeout: 10_000 },
    );
    expect(alerts.length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/account');
  });
});
