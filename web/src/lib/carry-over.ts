// Secrets that move from one screen to the next (the new mnemonic, a new password for recovery)
// live here, in memory only: never in the URL, browser storage or history state, which browsers
// keep for session restore. A reload loses them, by design.
type HandoffKey = 'mnemonic' | 'recoveryPassword';

const held = new Map<HandoffKey, string>();

export const handoff = {
  put(key: HandoffKey, value: string): void {
    held.set(key, value);
  },
  peek(key: HandoffKey): string | undefined {
    return held.get(key);
  },
  clear(key: HandoffKey): void {
    held.delete(key);
  },
};
