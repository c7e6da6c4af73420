import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { member, renderAt, requests, serveMember, appTestHooks } from '../test-fixtures';

function renderConvert(totalCaps: number) {
  serveMember(() => ({ ...member, caps: { ...member.caps, total: totalCaps } }));
  renderAt('/convert-caps');
}

const field = () => screen.getByLabelText('CAPs to convert', { selector: 'input' }) as HTMLInputElement;
const thumb = () => screen.getByRole('slider', { name: 'CAPs to convert' });
const convertNow = () => screen.getByRole('button', { name: /Convert Now|Converting\.\.\./ }) as HTMLButtonElement;

appTestHooks({ fakeClock: true });

describe('convert page amount (SPEC §4, §5)', () => {
  it('starts at min(1000, available) where available is the total minus the signup amount, red at the maximum', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(screen.getByTestId('caps-available').textContent).toBe('150');
    expect(field().value).toBe('150');
    expect(screen.getByText('Maximum: all 150 available CAPs.')).toBeTruthy();
    expect(field().className).toMatch(/atMax/);
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

  it('Convert Now shows Converting... for 2 s, then the success message for 5 s, and calls nothing', async () => {
    renderConvert(350);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    const before = requests.length;
    fireEvent.click(convertNow());
    expect(convertNow().textContent).toContain('Converting...');
    expect(convertNow().disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.getByRole('status').textContent).toBe('Conversion completed successfully');
    expect(convertNow().textContent).toBe('Convert Now');
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await waitFor(() => expect(screen.queryByText('Conversion completed successfully')).toBeNull());
    expect(requests.slice(before).filter((r) => !r.startsWith('GET /api/me'))).toEqual([]);
  });

  it('with no CAPs beyond the signup amount everything stays at 0 and Convert Now is disabled', async () => {
    renderConvert(200);
    await screen.findByRole('heading', { name: 'Convert CAPs' });
    expect(field().value).toBe('0');
    expect(convertNow().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'MAX' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
