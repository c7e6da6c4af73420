// A modal dialog's frame with a close button: the overlay, the panel, its title and description,
// what the dialog holds, and the × in the corner (Radix Dialog's parts). Inside a Dialog.Root,
// after its trigger.
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactElement, ReactNode } from 'react';
import dialog from './dialog.module.css';

export function DialogFrame({
  title,
  description,
  children,
}: {
  title: ReactNode;
  /** The element that describes the dialog to assistive technology (a paragraph, or a block). */
  description: ReactElement;
  children: ReactNode;
}) {
  return (
    <Dialog.Portal>
      <Dialog.Overlay className={dialog.overlay} />
      <Dialog.Content className={dialog.dialog}>
        <Dialog.Title className={dialog.title}>{title}</Dialog.Title>
        <Dialog.Description asChild>{description}</Dialog.Description>
        {children}
        <Dialog.Close className={dialog.close} aria-label="Close">
          <X aria-hidden="true" size={18} />
        </Dialog.Close>
      </Dialog.Content>
    </Dialog.Portal>
  );
}
