// A confirmation the member must answer before something that cannot be undone: an accessible
// alert dialog (Radix, as the swap modal), focus kept inside and given back when it closes.
import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../../../ui/button';
import styles from './account-lifecycle.module.css';
import dialog from '../../../ui/dialog.module.css';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  question: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  question,
  confirmLabel,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!next && !busy ? onCancel() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.dialog} role="alertdialog">
          <Dialog.Title className={styles.dialogTitle}>{title}</Dialog.Title>
          <Dialog.Description>{question}</Dialog.Description>
          <div className={styles.dialogActions}>
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button className={styles.danger} onClick={onConfirm} busy={busy}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
