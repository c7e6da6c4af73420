// The swap modal: a preview of swapping CAPs to REME at the one rate the convert page also
// uses (the original's 0.166 REME per CAP is that rate rounded). The amount input and MAX are
// disabled; Swap only says it is coming soon and makes no call.
import { conversionRates, formatGbp, remeBaseUnitsForCaps, remeForCaps } from '@crw/core';
import * as Dialog from '@radix-ui/react-dialog';
import { ArrowRightLeft, X } from 'lucide-react';
import { AmountField } from '../../../ui/amount-field';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { notify } from '../../../ui/toaster';
import styles from './dashboard.module.css';
import dialog from '../../../ui/dialog.module.css';

const SWAP_TITLE = 'Swap CAPs to REME – Coming Soon';
const SWAP_COMING_SOON =
  "Conversion Coming Soon! We're working hard to bring you CAPs to REME conversion in the next update. Stay tuned!";

/** The swap button and the modal it opens (focus returns to the button when it closes). */
export function SwapModal({
  caps,
  remePrice,
  className = card.small,
}: {
  caps: number;
  remePrice: string;
  className?: string;
}) {
  const amount = caps; // You Pay: the balance (the input that would change it is disabled)
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <Button variant="secondary" className={className} aria-label="Swap CAPs to REME">
          <ArrowRightLeft aria-hidden="true" size={16} />
          Swap
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.dialog}>
          <Dialog.Title className={styles.dialogTitle}>{SWAP_TITLE}</Dialog.Title>
          <Dialog.Description className={card.muted}>
            Swapping is a preview for now: nothing is converted.
          </Dialog.Description>
          <AmountField
            id="swap-amount"
            label="Amount of CAPs"
            value={amount}
            disabled
            readOnly
            maxDisabled
          />
          <dl className={card.pairs}>
            <dt>You Pay</dt>
            <dd data-testid="swap-pay">{caps} CAPs</dd>
            <dt>You Receive</dt>
            <dd data-testid="swap-receive">{remeForCaps(amount)} REME</dd>
            <dt>Worth</dt>
            <dd>≈ {formatGbp(remeBaseUnitsForCaps(amount), remePrice)}</dd>
            <dt>Rate</dt>
            <dd>
              1 CAP ≈ {conversionRates.remePerCap} REME ({conversionRates.capsPerReme} CAPs per
              REME)
            </dd>
          </dl>
          <Button onClick={() => notify.info(SWAP_COMING_SOON)} disabled={amount <= 0}>
            Swap
          </Button>
          <Dialog.Close className={styles.close} aria-label="Close">
            <X aria-hidden="true" size={18} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
