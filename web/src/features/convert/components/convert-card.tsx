// The convert card: a number field, MAX and a slider kept in sync, clamped to the CAPs
// available. It is a preview: Convert Now says what converting would give, never that
// it happened, and an empty field converts nothing. No call is made and nothing is converted.
import {
  clampConvertAmount,
  conversionRates,
  formatGbp,
  remeBaseUnitsForCaps,
  remeForCaps,
} from '@crw/core';
import * as Slider from '@radix-ui/react-slider';
import { useState } from 'react';
import { AmountField } from '../../../ui/amount-field';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import styles from './convert.module.css';

interface ConvertCardProps {
  available: number;
  /** The page's amount (it also shows what the member would have); the typed text is the card's. */
  amount: number;
  onAmountChange: (amount: number) => void;
  /** GBP per REME (REME_PRICE), the market price. */
  remePrice: string;
}

export function ConvertCard({ available, amount, onAmountChange, remePrice }: ConvertCardProps) {
  const [text, setText] = useState(String(amount));
  /** The amount Convert Now was last pressed for: its preview shows while the amount stays. */
  const [previewed, setPreviewed] = useState<number | null>(null);

  function setAmount(value: number) {
    const next = clampConvertAmount(value, available);
    setText(String(next));
    onAmountChange(next);
  }

  const worth = formatGbp(remeBaseUnitsForCaps(amount), remePrice);
  const atMax = available > 0 && amount === available;
  return (
    <CardSection titleId="convert-title" title="Convert CAPs to REME">
      <p className={callout.info} role="note">
        Preview: conversion is not live yet. Nothing is sent and no CAPs are converted.
      </p>
      <AmountField
        id="convert-amount"
        label="CAPs to convert"
        onMax={() => setAmount(available)}
        maxDisabled={available === 0}
        inputMode="numeric"
        min={0}
        max={available}
        step={1}
        value={text}
        aria-describedby="convert-limit"
        onChange={(e) => {
          setText(e.target.value);
          // An emptied field converts nothing (the text stays empty while the member types).
          if (e.target.value === '') onAmountChange(0);
          else setAmount(e.target.valueAsNumber);
        }}
        onBlur={() => setAmount(Number(text === '' ? Number.NaN : text))}
      >
        <p id="convert-limit" className={card.muted}>
          {atMax ? `That is all ${available} CAPs you can convert.` : `Up to ${available} CAPs.`}
        </p>
      </AmountField>
      <Slider.Root
        className={styles.slider}
        value={[amount]}
        min={0}
        max={Math.max(available, 1)}
        step={1}
        disabled={available === 0}
        onValueChange={([value]) => setAmount(value ?? 0)}
      >
        <Slider.Track className={styles.track}>
          <Slider.Range className={styles.range} />
        </Slider.Track>
        <Slider.Thumb className={styles.thumb} aria-label="CAPs to convert" />
      </Slider.Root>
      <dl className={card.pairs}>
        <dt>You convert</dt>
        <dd>{amount} CAPs</dd>
        <dt>You receive</dt>
        <dd data-testid="convert-receive">{remeForCaps(amount)} REME</dd>
        <dt>Worth</dt>
        <dd>≈ {worth}</dd>
        <dt>Rate</dt>
        <dd data-testid="convert-rate">
          {conversionRates.capsPerReme} CAPs per REME (1 CAP ≈ {conversionRates.remePerCap} REME)
        </dd>
      </dl>
      <p className={card.muted}>
        The rate is how many CAPs buy one REME; its worth in pounds is at the REME market price of £
        {remePrice} per REME.
      </p>
      {previewed !== null && previewed === amount ? (
        <p role="status" className={callout.info}>
          Preview only: converting {amount} CAPs would give you {remeForCaps(amount)} REME (≈{' '}
          {worth}). Nothing has been converted.
        </p>
      ) : null}
      <Button onClick={() => setPreviewed(amount)} disabled={amount === 0}>
        Convert Now
      </Button>
    </CardSection>
  );
}
