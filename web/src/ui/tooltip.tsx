// A hint on hover and keyboard focus, with these delays (200 ms to open, 150 ms between hints).
import * as RadixTooltip from '@radix-ui/react-tooltip';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@crw/core';
import type { ReactElement } from 'react';
import styles from './tooltip.module.css';

export function Tooltip({ text, children }: { text: string; children: ReactElement }) {
  return (
    <RadixTooltip.Provider
      delayDuration={TOOLTIP_DELAY_MS}
      skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}
    >
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className={styles.content} sideOffset={6}>
            {text}
            <RadixTooltip.Arrow className={styles.arrow} />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
