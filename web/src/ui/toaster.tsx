// Toasts (SPEC §9): top right, at most 5 at once, 5 s each, in the page's theme.
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '@crw/core';
import { toast, Toaster as Sonner } from 'sonner';
import styles from './toaster.module.css';

export function Toaster() {
  return (
    <Sonner
      className={styles.toaster}
      position="top-right"
      visibleToasts={TOAST_MAX_VISIBLE}
      duration={TOAST_DURATION_MS}
      theme="dark"
      richColors
      closeButton
    />
  );
}

export const notify = {
  info: (message: string) => toast(message),
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
};
