// A hint on hover and keyboard focus, with these delays (200 ms to open, 150 ms between hints), and
// on a tap: a phone has no hover, so a tap on the trigger opens the hint and a tap elsewhere (or a
// second tap) closes it.
import * as RadixTooltip from '@radix-ui/react-tooltip';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@crw/core';
import { useRef, useState, type ReactElement } from 'react';
import styles from './tooltip.module.css';

export function Tooltip({ text, children }: { text: string; children: ReactElement }) {
  const [open, setOpen] = useState(false);
  // Whether the hint showed when the press began: a tap also focuses the trigger, which opens the
  // hint before the click arrives, so the click sets the opposite of this, not of the state now.
  const openAtPress = useRef<boolean | null>(null);
  return (
    <RadixTooltip.Provider
      delayDuration={TOOLTIP_DELAY_MS}
      skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}
    >
      <RadixTooltip.Root open={open} onOpenChange={setOpen}>
        <RadixTooltip.Trigger
          asChild
          // Radix closes a hint when its trigger is pressed; a tap (or a click) toggles it instead.
          onPointerDown={() => {
            openAtPress.current = open;
          }}
          onClick={(event) => {
            event.preventDefault();
            const was = openAtPress.current ?? open;
            openAtPress.current = null;
            setOpen(!was);
          }}
        >
          {children}
        </RadixTooltip.Trigger>
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
