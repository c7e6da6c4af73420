import { useEffect, useRef, useState } from 'react';

/**
 * How much a figure has just gone up, for motion that explains it (a claim arriving, a referral
 * credited): `rise` is the last increase seen while the screen was open (never the first value,
 * so opening the dashboard does not animate) and `key` changes with each one, to restart the
 * animation. A fall or no change is no rise.
 */
export function useRise(value: number | null): { rise: number; key: number } {
  const previous = useRef(value);
  const [state, setState] = useState({ rise: 0, key: 0 });
  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (before !== null && value !== null && value > before)
      setState((s) => ({ rise: value - before, key: s.key + 1 }));
  }, [value]);
  return state;
}
