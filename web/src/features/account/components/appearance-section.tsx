// How the app looks on this device: the system's light or dark setting (the default), or a theme
// the member picks — Light for outdoors and older eyes, Aurora or Crimson dark — and the density.
// Kept in this browser only; nothing is sent.
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { DensityToggle, ThemeToggle } from '../../../ui/theme-toggle';
import styles from './account.module.css';

export function AppearanceSection() {
  return (
    <CardSection titleId="appearance-title" title="Appearance">
      <p className={card.muted}>
        Match system follows your phone or computer: light by day, dark at night if it is set so.
        Saved on this device.
      </p>
      <div className={styles.appearance}>
        <ThemeToggle />
        <DensityToggle />
      </div>
    </CardSection>
  );
}
