// A page on its way shows its shape (skeletons), not the word "Loading…".
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageLoading } from './page-loading';

afterEach(cleanup);

describe('PageLoading', () => {
  it('draws placeholder shapes and tells screen readers only that the page is loading', () => {
    const { container } = render(<PageLoading />);
    expect(screen.getByRole('main').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    const bones = container.querySelectorAll('[data-skeleton]');
    expect(bones.length).toBeGreaterThanOrEqual(5);
    for (const bone of bones) expect(bone.getAttribute('aria-hidden')).toBe('true');
  });
});
