// Converting care CAPs (docs/product.md#caps-and-reme): the Convert page's form, what it sends and
// what it says after; the rule and the figures at the community's rate; no dead button when there
// is nothing to convert or conversion is switched off.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, links, member, renderAt, requests, serveMember } from '../test-fixtures';
import { json, stubFetch } from '../test-network';

const withCare = (careActions: number, converted = 0) => ({
  ...member,
  caps: {
    ...member.caps,
    careActions,
    converted,
    convertible: careActions - converted,
    total: member.caps.registration + member.caps.referrals + careActions,
  },
});

/** The bodies of the conversions the page sent. */
const sent: unknown[] = [];

function renderConvert(
  details: object,
  answers: Record<string, () => unknown> = {},
  config: object = links,
) {
  sent.length = 0;
  serveMember(() => details, { '/api/config': () => config, ...answers });
  renderAt('/convert-caps');
}

const field = () =>
  screen.getByLabelText('CAPs to convert', { selector: 'input' }) as HTMLInputElement;
const thumb = () => screen.getByRole('slider', { name: 'CAPs to convert' });
const convertButton = () =>
  screen.getByRole('button', { name: /^Convert( [\d,]+ CAPs)?$|Converting/ }) as HTMLButtonElement;

appTestHooks({ fakeClock: true });

describe('the Convert page', () => {
  it('offers the care CAPs not yet converted, says why the others are not, and states the rule once', async () => {
    renderConvert(withCare(275, 60));
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('caps-available').textContent).toBe('215');
    expect(screen.getByTestId('caps-available-why').textContent).toBe(
      'Of your 625 CAPs, 275 were earned for care and 60 of those are converted. The 350 for joining and inviting are paid as REME on their own.',
    );
    expect(screen.getByTestId('conversion-rule').textContent).toBe(
      'Joining and inviting are paid as REME, one for each CAP, in the next payout. CAPs earned for care are yours to convert: 6.028 CAPs buy 1 REME, paid in the next payout.',
    );
    expect(field().value).toBe('215');
    expect(screen.getByText('That is all 215 care CAPs you can convert.').className).not.toMatch(
      /danger|error/i,
    );
    expect(field().getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(/preview/i)).toBeNull();
  });

  it('starts at 1000 when more is available, floors, clamps and keeps the slider in sync', async () => {
    renderConvert(withCare(5200));
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(field().value).toBe('1000');
    expect(thumb().getAttribute('aria-valuenow')).toBe('1000');
    fireEvent.change(field(), { target: { value: '40.9' } });
    expect(field().value).toBe('40');
    expect(thumb().getAttribute('aria-valuenow')).toBe('40');
    fireEvent.change(field(), { target: { value: '-5' } });
    expect(field().value).toBe('0');
    expect(convertButton().disabled).toBe(true);
    fireEvent.change(field(), { target: { value: '99999' } });
    expect(field().value).toBe('5200');
    fireEvent.change(field(), { target: { value: '' } });
    expect(convertButton().disabled).toBe(true);
    expect(screen.getByTestId('convert-receive').textContent).toBe('0.00 REME');
    fireEvent.blur(field());
    expect(field().value).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'MAX' }));
    expect(field().value).toBe('5200');
    fireEvent.keyDown(thumb(), { key: 'ArrowLeft' });
    expect(field().value).toBe('5199');
  });

  it('converts: sends the amount once with a request id, says what happened and when it is paid, and reads the figures again', async () => {
    const conversion = {
      caps: 60,
      reme: '9953550099535500995',
      convertedAt: '2026-11-26T10:00:00.000Z',
      paidInRound: null,
    };
    renderConvert(withCare(100));
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    // From here the server has the conversion once the POST arrived.
    stubFetch((path, init) => {
      requests.push(`${init?.method ?? 'GET'} ${path}`);
      if (path === '/api/conversions' && init?.method === 'POST') {
        sent.push(JSON.parse(String(init.body)));
        return { conversion };
      }
      if (path === '/api/conversions') return { items: sent.length ? [conversion] : [] };
      if (path === '/api/me') return withCare(100, sent.length ? 60 : 0);
      if (path === '/api/config') return links;
      if (path === '/api/rewards/held') return { items: [] };
      return undefined;
    });
    fireEvent.change(field(), { target: { value: '60' } });
    expect(screen.getByTestId('convert-receive').textContent).toBe('9.95 REME');
    expect(screen.getByTestId('convert-rate').textContent).toBe(
      '6.028 CAPs per REME (1 CAP ≈ 0.1659 REME)',
    );
    fireEvent.click(convertButton());
    await act(() => Promise.resolve());
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Converted 60 CAPs → 9.95 REME, paid in the next round',
      ),
    );
    expect(sent).toHaveLength(1);
    const body = sent[0] as { caps: number; requestId: string };
    expect(body.caps).toBe(60);
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.getByTestId('caps-available').textContent).toBe('40'));
    expect(requests.filter((r) => r === 'GET /api/me').length).toBeGreaterThan(1);
    expect((await screen.findByTestId('conversions')).textContent).toContain(
      'Converted 60 CAPs → 9.95 REME, paid in the next round',
    );
  });

  it('says the server’s reason when a conversion is refused, and keeps the amount', async () => {
    renderConvert(withCare(100));
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    stubFetch((path, init) => {
      if (path === '/api/conversions' && init?.method === 'POST')
        return json(
          {
            code: 'not_enough_caps',
            message:
              'You do not have that many care CAPs left to convert. Reload the page to see what you have.',
          },
          409,
        );
      if (path === '/api/conversions') return { items: [] };
      if (path === '/api/me') return withCare(100);
      if (path === '/api/config') return links;
      if (path === '/api/rewards/held') return { items: [] };
      return undefined;
    });
    fireEvent.click(convertButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You do not have that many care CAPs left to convert. Reload the page to see what you have.',
    );
    expect(field().value).toBe('100');
  });

  it('with no care CAPs says where they come from and shows no button', async () => {
    renderConvert(withCare(0));
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('nothing-to-convert').textContent).toMatch(
      /no care CAPs to convert yet/,
    );
    expect(screen.queryByRole('button', { name: /^Convert/ })).toBeNull();
    expect(screen.queryByLabelText('CAPs to convert')).toBeNull();
  });

  it('when the community switched conversion off says so and shows no button', async () => {
    renderConvert(
      withCare(100),
      {},
      { ...links, conversion: { open: false, capsPerReme: '6.028' } },
    );
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('conversion-closed').textContent).toMatch(/switched off/);
    expect(screen.queryByRole('button', { name: /^Convert/ })).toBeNull();
  });

  it('uses the community’s rate when it is not the specification’s', async () => {
    renderConvert(withCare(100), {}, { ...links, conversion: { open: true, capsPerReme: '10' } });
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('convert-receive').textContent).toBe('10.00 REME');
    expect(screen.getByTestId('convert-rate').textContent).toBe(
      '10 CAPs per REME (1 CAP ≈ 0.1 REME)',
    );
    expect(screen.getByTestId('conversion-rule').textContent).toMatch(/10 CAPs buy 1 REME/);
  });
});
