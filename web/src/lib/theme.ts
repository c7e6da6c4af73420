// Aurora (default) and crimson themes, and modern (default) and compact layouts, kept in local
// storage under rcb-background / rcb-layout and applied to the whole document.
import { LAYOUTS, THEMES, type Layout, type Theme } from '@crw/core';
import { useState } from 'react';
import { readStored, writeStored } from './storage';

export function storedTheme(): Theme {
  const value = readStored('rcbBackground');
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'aurora';
}

export function storedLayout(): Layout {
  const value = readStored('rcbLayout');
  return (LAYOUTS as readonly string[]).includes(value ?? '') ? (value as Layout) : 'modern';
}

/** Applies the stored (or given) theme and layout to the whole document, and the theme's
 * background to the phone's browser bar (the theme-color meta of index.html). */
export function applyTheme(theme: Theme = storedTheme(), layout: Layout = storedLayout()): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.layout = layout;
  const background = getComputedStyle(root).getPropertyValue('--color-bg').trim();
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta && background) meta.content = background;
}

export function useTheme() {
  const [theme, setThemeState] = useState<Theme>(storedTheme);
  const setTheme = (next: Theme) => {
    writeStored('rcbBackground', next);
    applyTheme(next, storedLayout());
    setThemeState(next);
  };
  return { theme, setTheme };
}

export function useLayout() {
  const [layout, setLayoutState] = useState<Layout>(storedLayout);
  const setLayout = (next: Layout) => {
    writeStored('rcbLayout', next);
    applyTheme(storedTheme(), next);
    setLayoutState(next);
  };
  return { layout, setLayout };
}
