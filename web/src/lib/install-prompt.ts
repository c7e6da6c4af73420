// The browser's offer to install the app (Chrome and Edge on Android and desktop fire
// `beforeinstallprompt`; Safari on iPhone and iPad has none, so its steps are said instead). The
// event is caught as the page loads (main.tsx) and kept until the dashboard's install card uses it.
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice?: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

export function catchInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault(); // the card offers it at the right moment, not the browser's mini-bar
    deferred = event as InstallPromptEvent;
    listeners.forEach((listener) => listener());
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    listeners.forEach((listener) => listener());
  });
}

export const canPromptInstall = () => deferred !== null;

export function onInstallPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the browser's install dialog; true when the member installed. */
export async function promptInstall(): Promise<boolean> {
  const event = deferred;
  if (!event) return false;
  deferred = null; // a prompt event works once
  listeners.forEach((listener) => listener());
  await event.prompt();
  const choice = await event.userChoice;
  return choice?.outcome === 'accepted';
}

/** Already opened from the home screen, as an installed app. */
export function runningInstalled(): boolean {
  const standalone =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(display-mode: standalone)').matches;
  return standalone || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/** Safari on an iPhone or iPad: installed through the share sheet, never by a prompt. */
export function isAppleMobile(): boolean {
  return (
    /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1)
  );
}
