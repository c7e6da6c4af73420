// Links and addresses are shortened in the middle, never broken inside, and
// stay whole for copying and screen readers.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MiddleTruncate } from './middle-truncate';

afterEach(cleanup);

describe('MiddleTruncate', () => {
  it('keeps the whole text in the page and the title, with the end apart so it always shows', () => {
    const link = 'https://wallet.example.org/r/ABCD2345';
    render(
      <p aria-label="Your referral link">
        <MiddleTruncate text={link} keep={11} />
      </p>,
    );
    const token = screen.getByTitle(link);
    expect(screen.getByLabelText('Your referral link').textContent).toBe(link);
    expect(token.lastElementChild?.textContent).toBe('/r/ABCD2345');
    expect(token.firstElementChild?.textContent).toBe('https://wallet.example.org');
  });

  it('a text shorter than the kept end is all end', () => {
    render(<MiddleTruncate text="0xAB" keep={6} />);
    expect(screen.getByTitle('0xAB').lastElementChild?.textContent).toBe('0xAB');
  });
});
