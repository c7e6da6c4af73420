// The member's appearance — the system's setting (the default: light or dark, dark being Aurora),
// or Aurora, Crimson or Light — and the modern (default) or compact layout, kept in local storage
// under rcb-background / rcb-layout and applied to the whole document. Chosen on the account page.
import { APPEARANCES, LAYOUTS, type Appearance, type Layout, type Theme } from '@crw/core';
import { useState } from 'react';
import { readStored, writeStored } from './storage';

const LIGHT_QUERY = '(prefers-color-scheme: light)';

export function storedAppearance(): Appearance {
  const value = readStored('rcbBackground');
  return (APPEARANCES as readonly string[]).includes(value ?? '')
    ? (value as Appearance)
    : 'system';
}

export function storedLayout(): Layout {
  const value = readStored('rcbLayout');
  return (LAYOUTS as readonly string[]).includes(value ?? '') ? (value as Layout) : 'modern';
}

/** The theme an appearance draws in now: the system's light or dark for 'system'. */
export function themeFor(appearance: Appearance): Theme {
  if (appearance !== 'system') return appearance;
  return typeof window.matchMedia === 'function' && window.matchMedia(LIGHT_QUERY).matches
    ? 'light'
    : 'aurora';
}

/** Applies the stored (or given) appearance and layout to the whole document, and the theme's
 * background to the phone's browser bar (the theme-color meta of index.html). */
export function applyTheme(
  appearance: Appearance = storedAppearance(),
  layout: Layout = storedLayout(),
): void {
  const root = document.documentElement;
  root.dataset.theme = themeFor(appearance);
  root.dataset.layout = layout;
  const background = getComputedStyle(root).getPropertyValue('--color-bg').trim();
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta && background) meta.content = background;
}

/** Follows the system's light or dark setting while the member's appearance is 'system'. */
export function followSystemTheme(): void {
  if (typeof window.matchMedia !== 'function') return;
  window.matchMedia(LIGHT_QUERY).addEventListener('change', () => {
    if (storedAppearance() === 'system') applyTheme();
  });
}

export function useAppearance() {
  const [appearance, setState] = useState<Appearance>(storedAppearance);
  const setAppearance = (next: Appearance) => {
    writeStored('rcbBackground', next);
    applyTheme(next, storedLayout());
    setState(next);
  };
  return { appearance, setAppearance };
}

export function useLayout() {
  const [layout, setLayoutState] = useState<Layout>(storedLayout);
  const setLayout = (next: Layout) => {
    writeStored('rcbLayout', next);
    applyTheme(storedAppearance(), next);
    setLayoutState(next);
  };
  return { layout, setLayout };
}
