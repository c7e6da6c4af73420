import { COPIED_INDICATOR_MS } from '@crw/core';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Copies text to the clipboard; `copied` stays true for 2 s. Resolves false if blocked. */
export function useCopy() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      return false;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return true;
  }, []);
  const reset = useCallback(() => {
    clearTimeout(timer.current);
    setCopied(false);
  }, []);
  return { copied, copy, reset };
}
