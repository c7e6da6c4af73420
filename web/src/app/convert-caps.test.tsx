import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { member, renderAt, requests, serveMember, appTestHooks } from '../test-fixtures';

function renderConvert(totalCaps: number) {
  serveMember(() => ({ ...member, caps: { ...member.caps, total: totalCaps } }));
  renderAt('/convert-caps');
}

const field = () =>
  screen.getByLabelText('CAPs to convert', { selector: 'input' }) as HTMLInputElement;
const thumb = () => screen.getByRole('slider', { name: 'CAPs to convert' });
const convertNow = () =>
  screen.getByRole('button', { name: /Convert Now|Converting\.\.\./ }) as HTMLButtonElement;

appTestHooks({ fakeClock: true });

describe('convert page amount', () => {
  it('starts at min(1000, available) where available is the total minus the signup amount, saying why, and not as an error', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('caps-available').textContent).toBe('150');
    expect(screen.getByTestId('caps-available-why').textContent).toBe(
      'The 200 CAPs for registering stay with your account and cannot be converted: of your 350 CAPs, 150 can.',
    );
    expect(field().value).toBe('150');
    expect(screen.getByText('That is all 150 CAPs you can convert.').className).not.toMatch(
      /limit|danger|error/i,
    );
    expect(field().className).not.toMatch(/atMax/);
    expect(field().getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText(/Preview: conversion is not live yet/)).toBeTruthy();
  });

  it('starts at 1000 when more is available', async () => {
    renderConvert(5200);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(field().value).toBe('1000');
    expect(thumb().getAttribute('aria-valuenow')).toBe('1000');
    expect(field().className).not.toMatch(/atMax/);
  });

  it('floors, turns NaN or negative into 0, caps at the available CAPs, and keeps the slider in sync', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    fireEvent.change(field(), { target: { value: '40.9' } });
    expect(field().value).toBe('40');
    expect(thumb().getAttribute('aria-valuenow')).toBe('40');
    fireEvent.change(field(), { target: { value: '-5' } });
    expect(field().value).toBe('0');
    expect(convertNow().disabled).toBe(true);
    fireEvent.change(field(), { target: { value: '99999' } });
    expect(field().value).toBe('150');
    fireEvent.change(field(), { target: { value: '' } });
    fireEvent.blur(field());
    expect(field().value).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'MAX' }));
    expect(field().value).toBe('150');
    fireEvent.keyDown(thumb(), { key: 'ArrowLeft' });
    expect(field().value).toBe('149');
    expect(screen.getByTestId('convert-receive').textContent).toBe('24.7179 REME');
  });

  it('an emptied field converts nothing: Convert Now is disabled until an amount is typed', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(convertNow().disabled).toBe(false);
    fireEvent.change(field(), { target: { value: '' } });
    expect(field().value).toBe('');
    expect(convertNow().disabled).toBe(true);
    expect(screen.getByTestId('convert-receive').textContent).toBe('0.0000 REME');
    fireEvent.change(field(), { target: { value: '60' } });
    expect(convertNow().disabled).toBe(false);
  });

  it('Convert Now says what converting would give, never that it happened, and calls nothing', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    const before = requests.length;
    fireEvent.click(convertNow());
    expect(screen.getByRole('status').textContent).toBe(
      'Preview only: converting 150 CAPs would give you 24.8838 REME (≈ £2.48). Nothing has been converted.',
    );
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.queryByText(/completed|successfully/i)).toBeNull();
    expect(convertNow().textContent).toBe('Convert Now');
    // What the member would have is said as a preview, and the REME held does not change.
    expect(
      screen.getByRole('heading', { name: 'If you converted 150 CAPs (preview)' }),
    ).toBeTruthy();
    expect(screen.queryByText('Total REMEs')).toBeNull();
    expect(
      screen.getByRole('heading', { name: 'REME you would have' }).nextElementSibling?.textContent,
    ).toBe('24.8838');
    expect(screen.getByRole('heading', { name: 'REME Held' }).nextElementSibling?.textContent).toBe(
      '0.0000',
    );
    // A new amount drops the preview of the old one.
    fireEvent.change(field(), { target: { value: '60' } });
    expect(screen.queryByRole('status')).toBeNull();
    expect(requests.slice(before).filter((r) => !r.startsWith('GET /api/me'))).toEqual([]);
  });

  it('shows one rate and explains the market price beside it', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('convert-rate').textContent).toBe(
      '6.028 CAPs per REME (1 CAP ≈ 0.1659 REME)',
    );
    expect(screen.queryByText(/£6\.03/)).toBeNull();
    expect(screen.getByText(/market price of £0\.10 per REME/)).toBeTruthy();
  });

  it('with no CAPs beyond the signup amount everything stays at 0 and Convert Now is disabled', async () => {
    renderConvert(200);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(field().value).toBe('0');
    expect(convertNow().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'MAX' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
