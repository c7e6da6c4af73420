// The dashboard's Convert button and its dialog: the Convert page's form (convert-form.tsx), the
// same rule and figures, so converting reads the same wherever it is done. A conversion closes the
// dialog and says what happened in a toast; focus returns to the button.
import type { CapsBreakdown } from '@crw/core';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { ArrowRightLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { publicConfigQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { DialogFrame } from '../../../ui/dialog-frame';
import { conversionLine, ConversionRule, ConvertForm } from './convert-form';
import { notify } from '../../../ui/toaster';

export function ConvertDialog({
  caps,
  remePrice,
  className = card.small,
}: {
  caps: CapsBreakdown;
  remePrice: string;
  className?: string;
}) {
  const config = useQuery(publicConfigQuery);
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="secondary" className={className} aria-label="Convert CAPs to REME">
          <ArrowRightLeft aria-hidden="true" size={16} />
          Convert
        </Button>
      </Dialog.Trigger>
      <DialogFrame
        title="Convert care CAPs to REME"
        description={
          <div>{config.data ? <ConversionRule setting={config.data.conversion} /> : null}</div>
        }
      >
        {config.data ? (
          <ConvertForm
            caps={caps}
            setting={config.data.conversion}
            remePrice={remePrice}
            onConverted={(conversion) => {
              setOpen(false);
              notify.success(conversionLine(conversion));
            }}
          />
        ) : null}
        <p className={card.muted}>
          <Link to="/convert-caps">See your conversions</Link>
        </p>
      </DialogFrame>
    </Dialog.Root>
  );
}
