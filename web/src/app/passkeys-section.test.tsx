// The account page's passkeys as a member meets them: what each passkey does, renaming one, and
// removing one with the password (sent as the derived auth secret, never the password); in a
// browser without passkeys the page says so and offers none to add, and lists the ones to remove.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

const passkeys = [
  {
    id: 'pk-1',
    credentialId: 'Y3JlZGVudGlhbC1vbmUtMTIzNDU2',
    name: 'Ada’s phone',
    createdAt: '2026-11-20T10:00:00.000Z',
    lastUsedAt: '2026-11-26T09:30:00.000Z',
    synced: true,
    prf: true,
    unlocksWallet: true,
  },
  {
    id: 'pk-2',
    credentialId: 'Y3JlZGVudGlhbC10d28tMTIzNDU2',
    name: 'Security key',
    createdAt: '2026-11-21T10:00:00.000Z',
    lastUsedAt: null,
    synced: false,
    prf: false,
    unlocksWallet: false,
  },
];

/** The bodies the page sent, by "METHOD path". */
const sent = new Map<string, unknown>();

async function openSection() {
  sent.clear();
  serveMember(undefined, {
    '/api/account/security': () => ({ twoFactorEnabled: false, sessions: [] }),
    '/api/account/passkeys': () => ({ passkeys }),
    '/api/account/passkeys/pk-1': () => ({ ok: true }),
  });
  const served = globalThis.fetch;
  globalThis.fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body)
      sent.set(`${init.method ?? 'GET'} ${String(url)}`, JSON.parse(String(init.body)));
    return served(url, init);
  }) as typeof fetch;
  renderAt('/account');
  return screen.findByRole('region', { name: /Passkeys/ });
}

describe('passkeys on the account page', () => {
  it('lists each passkey with what it does; this browser cannot make one, and says so', async () => {
    const section = await openSection();
    const list = await within(section).findByRole('list', { name: 'Your passkeys' });
    const [phone, key] = within(list).getAllByRole('listitem');
    expect(phone!.textContent).toContain('Ada’s phone');
    expect(phone!.textContent).toContain('Signs you in and unlocks your wallet');
    expect(key!.textContent).toContain('not used yet');
    expect(key!.textContent).toContain('Signs you in · your password unlocks your wallet');
    expect(section.textContent).toContain(
      'Passkeys cannot be used in this browser or at this address.',
    );
    expect(within(section).queryByRole('button', { name: /Add a passkey/ })).toBeNull();
  });

  it('renames one without the password, and removes one only with it', async () => {
    const section = await openSection();
    fireEvent.click(await within(section).findByRole('button', { name: 'Rename Ada’s phone' }));
    const name = within(section).getByLabelText('Passkey name', { selector: 'input' });
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save name' }));
    expect(
      await within(section).findByText('Give the passkey a name, such as “My phone”.'),
    ).toBeTruthy();
    fireEvent.change(name, { target: { value: 'My phone' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save name' }));
    expect(await within(section).findByText('Passkey renamed.')).toBeTruthy();
    expect(requests).toContain('PATCH /api/account/passkeys/pk-1');

    fireEvent.click(within(section).getByRole('button', { name: 'Remove Ada’s phone' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(section).findByText('Enter your password to continue.')).toBeTruthy();
    expect(requests).not.toContain('DELETE /api/account/passkeys/pk-1');
    fireEvent.change(within(section).getByLabelText('Your password', { selector: 'input' }), {
      target: { value: 'Caring-Friends-9' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(requests).toContain('DELETE /api/account/passkeys/pk-1'), {
      timeout: 10_000,
    });
    const body = sent.get('DELETE /api/account/passkeys/pk-1') as { authSecret: string };
    expect(body.authSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(body)).not.toContain('Caring-Friends-9');
    expect(await within(section).findByText(/“Ada’s phone” was removed\./)).toBeTruthy();
  });
});
