// The local storage keys, read and written in one place.
import { STORAGE_KEYS } from '@crw/core';

type StorageKey = keyof typeof STORAGE_KEYS;

export function readStored(key: StorageKey): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS[key]);
  } catch {
    return null; // storage disabled (private mode, policy): behave as empty
  }
}

export function writeStored(key: StorageKey, value: string): void {
  try {
    localStorage.setItem(STORAGE_KEYS[key], value);
  } catch {
    // storage disabled: the flag simply does not persist
  }
}

export function removeStored(key: StorageKey): void {
  try {
    localStorage.removeItem(STORAGE_KEYS[key]);
  } catch {
    // storage disabled
  }
}
