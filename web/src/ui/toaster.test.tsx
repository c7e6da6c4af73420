import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notify, Toaster } from './toaster';

describe('Toaster', () => {
  it('loads sonner with the first toast, and shows one asked for before the toaster was in the page', async () => {
    notify.error('Asked for before the toaster mounted');
    render(<Toaster />);
    expect(await screen.findByText('Asked for before the toaster mounted')).toBeTruthy();
    notify.success('Asked for after');
    expect(await screen.findByText('Asked for after')).toBeTruthy();
  });
});
