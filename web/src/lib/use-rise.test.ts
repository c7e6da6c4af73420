import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useRise } from './use-rise';

describe('useRise', () => {
  it('is no rise on the first value, a fall or no change; each increase restarts it', () => {
    const { result, rerender } = renderHook(
      ({ value }: { value: number | null }) => useRise(value),
      { initialProps: { value: 200 as number | null } },
    );
    expect(result.current).toEqual({ rise: 0, key: 0 });
    act(() => rerender({ value: 200 }));
    expect(result.current).toEqual({ rise: 0, key: 0 });
    act(() => rerender({ value: 300 }));
    expect(result.current).toEqual({ rise: 100, key: 1 });
    act(() => rerender({ value: 250 }));
    expect(result.current).toEqual({ rise: 100, key: 1 });
    act(() => rerender({ value: 300 }));
    expect(result.current).toEqual({ rise: 50, key: 2 });
    act(() => rerender({ value: null }));
    act(() => rerender({ value: 400 }));
    expect(result.current).toEqual({ rise: 50, key: 2 });
  });
});
