// Turning on two-factor sign-in on the phone that runs the authenticator app: the otpauth:// link
// opens the app, the key is shown in groups of four and copied whole, backup codes are grouped;
// and at sign-in a backup code is taken however it is typed.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/REME%20Wallet:member%40example.org?secret=${SECRET}&issuer=REME+Wallet&digits=6&period=30`;
const BACKUP_CODES = ['ABCD-EFGH', 'JKLM-NPQR', 'STUV-WXYZ', '2345-6789'];

async function startEnrolment() {
  serveMember(undefined, {
    '/api/account/security': () => ({ twoFactorEnabled: false, sessions: [] }),
    '/auth/two-factor/enable': () => ({ totpURI: URI, backupCodes: BACKUP_CODES }),
  });
  renderAt('/account');
  const section = await screen.findByRole('region', { name: /Two-factor sign-in/ });
  fireEvent.click(
    await within(section).findByRole('button', { name: 'Turn on two-factor sign-in' }),
  );
  fireEvent.change(within(section).getByLabelText('Your password', { selector: 'input' }), {
    target: { value: 'Caring-Friends-9' },
  });
  fireEvent.click(within(section).getByRole('button', { name: 'Continue' }));
  await within(section).findByRole(
    'link',
    { name: 'Open in authenticator app' },
    { timeout: 10_000 },
  );
  return section;
}

describe('turning on two-factor sign-in', () => {
  it('offers the otpauth:// link for the app on this phone, beside the QR code', async () => {
    const section = await startEnrolment();
    expect(requests).toContain('POST /auth/two-factor/enable');
    const link = within(section).getByRole('link', { name: 'Open in authenticator app' });
    expect(link.getAttribute('href')).toBe(URI);
    expect(link.getAttribute('target')).toBeNull();
    expect(
      await within(section).findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeTruthy();
  });

  it('shows the key in groups of four, spells it for screen readers, and copies it without spaces', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const section = await startEnrolment();
    const key = within(section).getByTestId('totp-secret');
    expect(key.textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    // Read as characters, a pause between groups, not as one long word.
    expect(key.getAttribute('aria-hidden')).toBe('true');
    expect(section.textContent).toContain('Key: J B S W, Y 3 D P, E H P K, 3 P X P, J B S W');

    fireEvent.click(within(section).getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(await within(section).findByRole('button', { name: 'Key copied' })).toBeTruthy();
    // The backup codes have their own Copy, and are shown grouped as made.
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent)
        .filter((t) => BACKUP_CODES.includes(t ?? '')),
    ).toEqual(BACKUP_CODES);
    fireEvent.click(within(section).getByRole('button', { name: 'Copy backup codes' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(BACKUP_CODES.join('\n')));
  });
});
