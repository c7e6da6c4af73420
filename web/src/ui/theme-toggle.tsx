import type { Appearance, Layout } from '@crw/core';
import { useAppearance, useLayout } from '../lib/theme';
import { ToggleGroup } from './toggle-group';

const APPEARANCE_OPTIONS: Array<[Appearance, string]> = [
  ['system', 'Match system'],
  ['light', 'Light'],
  ['aurora', 'Aurora'],
  ['crimson', 'Crimson'],
];

const LAYOUT_OPTIONS: Array<[Layout, string]> = [
  ['modern', 'Comfortable'],
  ['compact', 'Compact'],
];

/** The appearance choice; it applies app-wide and persists (rcb-background). */
export function ThemeToggle() {
  const { appearance, setAppearance } = useAppearance();
  return (
    <ToggleGroup
      label="Theme"
      value={appearance}
      onChange={setAppearance}
      options={APPEARANCE_OPTIONS}
    />
  );
}

/** The spacing choice; it applies app-wide and persists (rcb-layout). */
export function DensityToggle() {
  const { layout, setLayout } = useLayout();
  return (
    <ToggleGroup label="Density" value={layout} onChange={setLayout} options={LAYOUT_OPTIONS} />
  );
}
