import * as Dialog from '@radix-ui/react-dialog';
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

  it('a toast while a modal dialog is open stays where screen readers reach it', async () => {
    render(
      <>
        <Toaster />
        <Dialog.Root open>
          <Dialog.Portal>
            <Dialog.Content aria-describedby={undefined}>
              <Dialog.Title>Swap</Dialog.Title>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </>,
    );
    notify.info('Conversion Coming Soon!');
    const toast = await screen.findByText('Conversion Coming Soon!');
    expect(toast.closest('[aria-hidden="true"]')).toBeNull();
  });
});
