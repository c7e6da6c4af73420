// Secrets that move from one screen to the next (the new mnemonic, a new password for recovery)
// live here, in memory only: never in the URL, browser storage or history state, which browsers
// keep for session restore. A reload loses them, by design.
// 'passwordSignIn' is no secret: it marks a sign-in by password, after which the dashboard may
// offer a passkey once.
type CarriedKey = 'mnemonic' | 'recoveryPassword' | 'passwordSignIn';

const held = new Map<CarriedKey, string>();

export const carryOver = {
  put(key: CarriedKey, value: string): void {
    held.set(key, value);
  },
  peek(key: CarriedKey): string | undefined {
    return held.get(key);
  },
  clear(key: CarriedKey): void {
    held.delete(key);
  },
};
