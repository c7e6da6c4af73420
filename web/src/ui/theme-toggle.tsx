import type { Theme } from '@crw/core';
import { useTheme } from '../lib/theme';
import { ToggleGroup } from './toggle-group';

const THEME_OPTIONS: Array<[Theme, string]> = [
  ['aurora', 'Aurora'],
  ['crimson', 'Crimson'],
];

/** The Aurora/Crimson toggle; the choice applies app-wide and persists (rcb-background). */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  return <ToggleGroup label="Theme" value={theme} onChange={setTheme} options={THEME_OPTIONS} />;
}
