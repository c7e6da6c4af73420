// SPEC §2/§4/§5 convert card: a number field, MAX and a slider kept in sync, clamped to the CAPs
// available; Convert Now simulates the conversion (2 s), then says it completed (5 s). No call is
// made and nothing is converted: the page says so.
import { CAPS_PER_REME, clampConvertAmount, CONVERT_SIMULATION_MS, CONVERT_SUCCESS_MS, remeForCaps } from '@crw/core';
import * as Slider from '@radix-ui/react-slider';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import forms from '../../../ui/forms.module.css';
import styles from './convert.module.css';

const CONVERT_SUCCESS = 'Conversion completed successfully';

/** The amount is the page's (it also shows what stays unconverted); the typed text is the card's. */
export function ConvertCard({ available, amount, onAmountChange }: { available: number; amount: number; onAmountChange: (amount: number) => void }) {
  const [text, setText] = useState(String(amount));
  const [phase, setPhase] = useState<'idle' | 'converting' | 'done'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  function setAmount(value: number) {
    const next = clampConvertAmount(value, available);
    setText(String(next));
    onAmountChange(next);
  }

  function convert() {
    clearTimeout(timer.current); // a second press during the success message starts afresh
    setPhase('converting');
    timer.current = setTimeout(() => {
      setPhase('done');
      timer.current = setTimeout(() => setPhase('idle'), CONVERT_SUCCESS_MS);
    }, CONVERT_SIMULATION_MS);
  }

  const atMax = available > 0 && amount === available;
  return (
    <section className={card.card} aria-labelledby="convert-title">
      <h2 id="convert-title" className={card.cardTitle}>
        Convert CAPs to REME
      </h2>
      <p className={callout.info} role="note">
        Preview: conversion is not live yet. Nothing is sent and no CAPs are converted.
      </p>
      <div className={forms.field}>
        <label className={forms.label} htmlFor="convert-amount">
          CAPs to convert
        </label>
        <div className={forms.amountRow}>
          <input
            id="convert-amount"
            className={`${forms.input} ${atMax ? styles.atMax : ''}`}
            type="number"
            inputMode="numeric"
            min={0}
            max={available}
            step={1}
            value={text}
            aria-describedby="convert-limit"
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value !== '') setAmount(e.target.valueAsNumber);
            }}
            onBlur={() => setAmount(Number(text === '' ? Number.NaN : text))}
          />
          <Button variant="secondary" onClick={() => setAmount(available)} disabled={available === 0}>
            MAX
          </Button>
        </div>
        <p id="convert-limit" className={atMax ? styles.limitReached : card.muted}>
          {atMax ? `Maximum: all ${available} available CAPs.` : `Up to ${available} CAPs.`}
        </p>
      </div>
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
        <dt>Rate</dt>
        <dd>
          {CAPS_PER_REME} CAPs per REME (£{CAPS_PER_REME.toFixed(2)})
        </dd>
      </dl>
      {phase === 'done' ? (
        <p role="status" className={callout.success}>
          {CONVERT_SUCCESS}
        </p>
      ) : null}
      <Button onClick={convert} busy={phase === 'converting'} disabled={amount === 0}>
        {phase === 'converting' ? 'Converting...' : 'Convert Now'}
      </Button>
    </section>
  );
}
