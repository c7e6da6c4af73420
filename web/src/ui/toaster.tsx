// Toasts: top right, at most 5 at once, 5 s each, in the page's theme. Sonner is loaded
// with the first toast, not with the first screen (it kept the sign-in screen over its 120 KB
// budget: bench/web.ts); that toast shows as soon as the toaster is in the page.
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '@crw/core';
import { useEffect, useState } from 'react';
import type * as SonnerModule from './sonner';
import styles from './toaster.module.css';

type Sonner = typeof SonnerModule;

let loading: Promise<Sonner> | null = null;
let onLoaded: (sonner: Sonner) => void = () => {};
/** Loads sonner once; a failed load (the network dropped) is forgotten, so the next toast tries again. */
const load = () =>
  (loading ??= import('./sonner').then(
    (module) => (onLoaded(module), module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));

let markMounted: (sonner: Sonner) => void = () => {};
/** Resolves once sonner's Toaster is in the page and listening. */
const mounted = new Promise<Sonner>((resolve) => (markMounted = resolve));

export function Toaster() {
  const [sonner, setSonner] = useState<Sonner | null>(null);
  useEffect(() => {
    onLoaded = setSonner;
    // A toast asked for before this mounted has started the load already.
    if (loading) void loading.then(setSonner, () => {});
    return () => {
      onLoaded = () => {};
    };
  }, []);
  // Runs after sonner's own Toaster has mounted and subscribed (a child's effects run first).
  useEffect(() => {
    if (sonner) markMounted(sonner);
  }, [sonner]);
  // The host is in the page from the start and marked as a live region (off: sonner's own region
  // inside speaks), because a modal dialog hides everything outside it from screen readers except
  // live regions that exist when it opens: a toaster that arrived later, while the swap dialog was
  // open, was hidden with the page and its toast never announced.
  const Sonner = sonner?.Toaster;
  return (
    <div aria-live="off">
      {Sonner ? (
        <Sonner
          className={styles.toaster}
          position="top-right"
          visibleToasts={TOAST_MAX_VISIBLE}
          duration={TOAST_DURATION_MS}
          theme="dark"
          richColors
          closeButton
        />
      ) : null}
    </div>
  );
}

/** Loads sonner (once) and shows the toast when its Toaster listens. */
function show(message: string, kind: 'info' | 'success' | 'error') {
  // A toast that cannot be shown (sonner did not load) is dropped quietly, never an unhandled error.
  void load().catch(() => {});
  void mounted.then(({ toast }) => (kind === 'info' ? toast(message) : toast[kind](message)));
}

export const notify = {
  info: (message: string) => show(message, 'info'),
  success: (message: string) => show(message, 'success'),
  error: (message: string) => show(message, 'error'),
};
