// The bars read right at 0, 20 and 100 % (a native <progress> looked full at 0 %).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressBar } from './progress-bar';

afterEach(cleanup);

describe('ProgressBar', () => {
  it.each([
    [0, 5, '0%'],
    [1, 5, '20%'],
    [5, 5, '100%'],
    [9, 5, '100%'],
    [-1, 5, '0%'],
  ])('%i of %i fills %s of the track and says so', (value, max, width) => {
    render(<ProgressBar label="Referral goal progress" value={value} max={max} />);
    const bar = screen.getByRole('progressbar', { name: 'Referral goal progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe(String(Math.min(Math.max(value, 0), max)));
    expect(bar.getAttribute('aria-valuemax')).toBe(String(max));
    expect((bar.firstElementChild as HTMLElement).style.width).toBe(width);
    expect(document.querySelector('progress')).toBeNull();
  });
});
