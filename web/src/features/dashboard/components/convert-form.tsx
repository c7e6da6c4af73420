// The one form that converts care CAPs into REME (docs/product.md#caps-and-reme), on the Convert
// page and in the dashboard's Convert dialog: the same rule, the same figures, the same call. A
// number field and MAX (and, on the page, a slider) kept in sync and clamped to the care CAPs left;
// the button names what it does; the answer says what happened and when it is paid.
import {
  clampConvertAmount,
  conversionRatesFor,
  formatReme,
  formatGbp,
  initialConvertAmount,
  remeBaseUnitsForCaps,
  remeForCaps,
  type CapsBreakdown,
  type Conversion,
} from '@crw/core';
import * as Slider from '@radix-ui/react-slider';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AmountField } from '../../../ui/amount-field';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { figuresChanged } from '../api/activity';
import { convertCaps } from '../api/conversions';
import styles from './convert.module.css';

export interface ConversionSetting {
  open: boolean;
  /** CAPs per REME, "6.028". */
  capsPerReme: string;
}

/** "1 CAP", "60 CAPs". */
const capsText = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'CAP' : 'CAPs'}`;

/** "Converted 60 CAPs → 9.95 REME, paid in the next round" (or "paid in round 4"). */
export function conversionLine(c: Conversion): string {
  const paid = c.paidInRound === null ? 'paid in the next round' : `paid in round ${c.paidInRound}`;
  return `Converted ${capsText(c.caps)} → ${formatReme(c.reme)} REME, ${paid}`;
}

/** The rule, in one sentence, where the numbers are. */
export function ConversionRule({ setting }: { setting: ConversionSetting }) {
  return (
    <p className={card.muted} data-testid="conversion-rule">
      Joining and inviting are paid as REME, one for each CAP, in the next payout. CAPs earned for
      care are yours to convert: {setting.capsPerReme} CAPs buy 1 REME, paid in the next payout.
    </p>
  );
}

export function ConvertForm({
  caps,
  setting,
  remePrice,
  withSlider = false,
  onConverted,
}: {
  caps: CapsBreakdown;
  setting: ConversionSetting;
  /** GBP per REME (REME_PRICE), the market price. */
  remePrice: string;
  withSlider?: boolean;
  /** Called with what was converted, instead of saying it in the form (the dialog closes and
   * says it in a toast). */
  onConverted?: (conversion: Conversion) => void;
}) {
  const client = useQueryClient();
  const available = caps.convertible;
  const [amount, setAmountState] = useState(() => initialConvertAmount(available));
  const [text, setText] = useState(String(amount));
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // One id per conversion: a retry after a lost answer sends the same id, so it converts once.
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const convert = useMutation({
    mutationFn: () => convertCaps(amount, requestId),
    onSuccess: async ({ conversion }) => {
      setRequestId(crypto.randomUUID());
      const left = Math.max(0, available - conversion.caps);
      setAmount(Math.min(amount, left));
      if (onConverted) onConverted(conversion);
      else setDone(conversionLine(conversion));
      await Promise.all([
        figuresChanged(client),
        client.invalidateQueries({ queryKey: ['conversions'] }),
      ]);
    },
    onError: (error) => setProblem(error.message),
  });

  function setAmount(value: number) {
    const next = clampConvertAmount(value, available);
    setText(String(next));
    setAmountState(next);
  }

  if (!setting.open)
    return (
      <p className={callout.info} role="note" data-testid="conversion-closed">
        Converting CAPs is switched off by the community for now. Your care CAPs stay yours, and
        joining and inviting are still paid as REME.
      </p>
    );
  if (available === 0 && !done)
    return (
      <p className={callout.info} role="note" data-testid="nothing-to-convert">
        {caps.converted > 0
          ? `You have converted all your care CAPs (${caps.converted.toLocaleString('en-GB')}). New care actions add more.`
          : 'You have no care CAPs to convert yet. Your community credits them for care actions, such as visiting a neighbour.'}
      </p>
    );

  const rates = conversionRatesFor(setting.capsPerReme);
  const reme = remeForCaps(amount, setting.capsPerReme);
  const worth = formatGbp(remeBaseUnitsForCaps(amount, setting.capsPerReme), remePrice);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (amount <= 0) return setProblem('Enter how many CAPs to convert.');
    setProblem(null);
    convert.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className={styles.form}>
      <AmountField
        id={withSlider ? 'convert-amount' : 'convert-amount-dialog'}
        label="CAPs to convert"
        onMax={() => setAmount(available)}
        maxDisabled={available === 0 || convert.isPending}
        inputMode="numeric"
        min={0}
        max={available}
        step={1}
        value={text}
        disabled={convert.isPending}
        aria-describedby={withSlider ? 'convert-limit' : 'convert-limit-dialog'}
        onChange={(e) => {
          setDone(null);
          setText(e.target.value);
          // An emptied field converts nothing (the text stays empty while the member types).
          if (e.target.value === '') setAmountState(0);
          else setAmount(e.target.valueAsNumber);
        }}
        // Leaving an emptied field shows 0; an amount the member chose stays as it is, even when
        // another tab converted meanwhile (the server then says too few are left, never converts
        // a different amount than the button named).
        onBlur={() => {
          if (text === '') setAmount(0);
        }}
      >
        <p id={withSlider ? 'convert-limit' : 'convert-limit-dialog'} className={card.muted}>
          {available > 0 && amount === available
            ? `That is all ${available.toLocaleString('en-GB')} care CAPs you can convert.`
            : `Up to ${available.toLocaleString('en-GB')} care CAPs.`}
        </p>
      </AmountField>
      {withSlider ? (
        <Slider.Root
          className={styles.slider}
          value={[amount]}
          min={0}
          max={Math.max(available, 1)}
          step={1}
          disabled={available === 0 || convert.isPending}
          onValueChange={([value]) => setAmount(value ?? 0)}
        >
          <Slider.Track className={styles.track}>
            <Slider.Range className={styles.range} />
          </Slider.Track>
          <Slider.Thumb className={styles.thumb} aria-label="CAPs to convert" />
        </Slider.Root>
      ) : null}
      <dl className={card.pairs}>
        <dt>You convert</dt>
        <dd data-testid="convert-pay">{capsText(amount)}</dd>
        <dt>You receive</dt>
        <dd data-testid="convert-receive">{reme} REME</dd>
        <dt>Worth</dt>
        <dd>≈ {worth}</dd>
        <dt>Rate</dt>
        <dd data-testid="convert-rate">
          {rates.capsPerReme} CAPs per REME (1 CAP ≈ {rates.remePerCap} REME)
        </dd>
      </dl>
      <p className={card.muted}>
        The REME join your next payout; a conversion cannot be undone. Its worth in pounds is at the
        REME market price of £{remePrice}.
      </p>
      <FormMessage error={problem} success={done} />
      <Button type="submit" busy={convert.isPending} disabled={amount === 0}>
        {convert.isPending
          ? 'Converting…'
          : amount === 0
            ? 'Convert'
            : `Convert ${capsText(amount)}`}
      </Button>
    </form>
  );
}
