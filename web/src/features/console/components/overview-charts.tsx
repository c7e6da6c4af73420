// The overview's charts, loaded lazily by overview-screen.tsx so that uPlot (a small
// canvas chart library) lands in this chunk alone: members joined per day, CAPs credited per day
// by kind, claims per day, and REME distributed against claimed. Each chart is an image with a
// name that says what it shows, and its numbers stand beside it (and day by day, folded away).
// Colours are the theme's (--chart-* in the module), read again when the theme changes.
import { formatTokens } from '@crw/core';
import { type ConsoleOverview, type OverviewDay } from '@crw/core/console';
import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import card from '../../../ui/card.module.css';
import table from './console.module.css';
import styles from './overview-charts.module.css';

const HEIGHT = 200;
const DAY_SECONDS = 86_400;
const whole = (n: number) => n.toLocaleString('en-GB');
const dayName = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const dayOf = (date: string) => dayName.format(new Date(`${date}T00:00:00Z`));

interface Series {
  label: string;
  /** A --chart-* variable of overview-charts.module.css. */
  colour: string;
  values: Array<number | null>;
  bars?: boolean;
}

/** A number that changes when the document's theme or layout does, so charts draw again. */
function useThemeKey(): number {
  const [key, setKey] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setKey((k) => k + 1));
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme', 'data-layout'],
    });
    return () => observer.disconnect();
  }, []);
  return key;
}

/** Whether this browser draws on a canvas (a test's document may not). */
function canvasWorks(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/** Daily values over time: bars or lines, stacked when asked (the first series at the bottom). */
function Plot({
  label,
  dates,
  series,
  stacked = false,
}: {
  label: string;
  dates: string[];
  series: Series[];
  stacked?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useThemeKey();
  useEffect(() => {
    const el = box.current;
    if (!el || !canvasWorks()) return;
    const css = getComputedStyle(el);
    const colour = (name: string) => css.getPropertyValue(name).trim() || css.color;
    const font = `12px ${css.fontFamily}`;
    const axis = colour('--chart-axis');
    const grid = colour('--chart-grid');
    // Stacked bars are drawn as running totals, the tallest first, each shorter one over it.
    const drawn = stacked ? [...series].reverse() : series;
    const heights = stacked
      ? drawn.map((_, i) =>
          dates.map((__, d) => drawn.slice(i).reduce((sum, s) => sum + (s.values[d] ?? 0), 0)),
        )
      : drawn.map((s) => s.values);
    const plot = new uPlot(
      {
        width: el.clientWidth || 320,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: {
          x: {
            time: true,
            range: (_u, min, max) => [min - DAY_SECONDS / 2, max + DAY_SECONDS / 2],
          },
          y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
        },
        axes: [
          {
            stroke: axis,
            font,
            space: 56,
            incrs: [1, 2, 7, 14].map((n) => n * DAY_SECONDS),
            values: (_u, splits) => splits.map((ts) => dayName.format(new Date(ts * 1000))),
            grid: { show: false },
            ticks: { stroke: grid },
          },
          {
            stroke: axis,
            font,
            size: 52,
            incrs: [
              1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6,
              1e7,
            ],
            values: (_u, splits) =>
              splits.map((v) => new Intl.NumberFormat('en-GB', { notation: 'compact' }).format(v)),
            grid: { stroke: grid, width: 1 },
            ticks: { show: false },
          },
        ],
        series: [
          {
            label: 'Day',
            value: (_u, ts: number | null) =>
              ts === null ? '—' : dayName.format(new Date(ts * 1000)),
          },
          ...drawn.map((s) => {
            const stroke = colour(s.colour);
            return {
              label: s.label,
              stroke,
              width: s.bars ? 0 : 2,
              fill: s.bars ? stroke : undefined,
              paths: s.bars ? uPlot.paths.bars!({ size: [0.7, 40], align: 0 }) : undefined,
              points: { show: !s.bars, size: 4 },
              value: (_u: uPlot, _v: number | null, _si: number, d: number | null) =>
                d === null ? '—' : whole(s.values[d] ?? 0),
            };
          }),
        ],
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false }, points: { show: false } },
      },
      [dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), ...heights],
      el,
    );
    const resized =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver(() => {
            if (el.clientWidth > 0 && el.clientWidth !== plot.width)
              plot.setSize({ width: el.clientWidth, height: HEIGHT });
          });
    resized?.observe(el);
    return () => {
      resized?.disconnect();
      plot.destroy();
    };
  }, [dates, series, stacked, theme]);
  return <div ref={box} role="img" aria-label={label} className={styles.plot} />;
}

/** The busiest day of `pick` ("12 Nov (7)"), or "none" when every day is 0. */
function busiest(days: OverviewDay[], pick: (d: OverviewDay) => number | null): string {
  let best: OverviewDay | undefined;
  for (const d of days) if ((pick(d) ?? 0) > (best ? (pick(best) ?? 0) : 0)) best = d;
  return best ? `${dayOf(best.date)} (${whole(pick(best) ?? 0)})` : 'none';
}

const total = (days: OverviewDay[], pick: (d: OverviewDay) => number | null) =>
  days.reduce((n, d) => n + (pick(d) ?? 0), 0);

function Swatch({ colour }: { colour: string }) {
  return <span className={styles.swatch} style={{ background: `var(${colour})` }} aria-hidden />;
}

/** The series day by day, newest first, folded away under the chart's numbers. */
function DayTable({
  caption,
  days,
  columns,
}: {
  caption: string;
  days: OverviewDay[];
  columns: Array<[string, (d: OverviewDay) => number | null]>;
}) {
  return (
    <details className={styles.days}>
      <summary>Day by day</summary>
      <div className={table.scroll}>
        <table className={table.table}>
          <caption className={styles.caption}>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {columns.map(([name]) => (
                <th key={name} scope="col" className={table.num}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.date}>
                <th scope="row">{dayOf(d.date)}</th>
                {columns.map(([name, pick]) => {
                  const value = pick(d);
                  return (
                    <td key={name} className={table.num}>
                      {value === null ? '—' : whole(value)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function ChartCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={card.card} aria-labelledby={id}>
      <h2 id={id} className={card.cardTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

const CAP_KINDS: Array<{ label: string; colour: string; pick: (d: OverviewDay) => number }> = [
  { label: 'Registration', colour: '--chart-1', pick: (d) => d.caps.signup },
  { label: 'Referral level 1', colour: '--chart-2', pick: (d) => d.caps.referralLevel1 },
  { label: 'Referral level 2', colour: '--chart-3', pick: (d) => d.caps.referralLevel2 },
  { label: 'Referral level 3', colour: '--chart-4', pick: (d) => d.caps.referralLevel3 },
  { label: 'Care actions', colour: '--chart-5', pick: (d) => d.caps.careAction },
];

export default function OverviewCharts({ overview }: { overview: ConsoleOverview }) {
  const { days, totals } = overview;
  const n = days.length;
  const today = days.at(-1);
  const dates = useMemo(() => days.map((d) => d.date), [days]);
  const members = useMemo<Series[]>(
    () => [
      { label: 'Joined', colour: '--chart-1', values: days.map((d) => d.joined), bars: true },
      { label: 'Confirmed', colour: '--chart-2', values: days.map((d) => d.confirmed) },
    ],
    [days],
  );
  const caps = useMemo<Series[]>(
    () =>
      CAP_KINDS.map((k) => ({
        label: k.label,
        colour: k.colour,
        values: days.map(k.pick),
        bars: true,
      })),
    [days],
  );
  const claimsKnown = days.every((d) => d.claims !== null);
  const claims = useMemo<Series[]>(
    () => [{ label: 'Claims', colour: '--chart-1', values: days.map((d) => d.claims), bars: true }],
    [days],
  );

  const joined = total(days, (d) => d.joined);
  const confirmed = total(days, (d) => d.confirmed);
  const capsTotal = CAP_KINDS.reduce((sum, k) => sum + total(days, k.pick), 0);
  const claimCount = total(days, (d) => d.claims);
  const distributed = BigInt(totals.remeDistributed);
  const claimed = BigInt(totals.remeClaimed);
  const share = distributed === 0n ? 0 : Number((claimed * 10_000n) / distributed) / 100;
  const reme = (amount: bigint) => `${formatTokens(amount)} REME`;

  return (
    <div className={styles.charts}>
      <ChartCard id="chart-members" title="Members joined per day">
        <div className={styles.body}>
          <Plot
            label={`Members joined per day over the last ${n} days: ${whole(joined)} joined and ${whole(confirmed)} confirmed; the busiest day was ${busiest(days, (d) => d.joined)}.`}
            dates={dates}
            series={members}
          />
          <dl className={styles.numbers} aria-label="Members joined, last days">
            <dt>
              <Swatch colour="--chart-1" />
              Joined in {n} days
            </dt>
            <dd>{whole(joined)}</dd>
            <dt>
              <Swatch colour="--chart-2" />
              Confirmed in {n} days
            </dt>
            <dd>{whole(confirmed)}</dd>
            <dt>Joined today</dt>
            <dd>{whole(today?.joined ?? 0)}</dd>
            <dt>Busiest day</dt>
            <dd>{busiest(days, (d) => d.joined)}</dd>
          </dl>
        </div>
        <DayTable
          caption="Members who joined and who confirmed, per UTC day"
          days={days}
          columns={[
            ['Joined', (d) => d.joined],
            ['Confirmed', (d) => d.confirmed],
          ]}
        />
      </ChartCard>

      <ChartCard id="chart-caps" title="CAPs credited per day, by kind">
        <div className={styles.body}>
          <Plot
            label={`CAPs credited per day over the last ${n} days, stacked by kind: ${CAP_KINDS.map((k) => `${k.label.toLowerCase()} ${whole(total(days, k.pick))}`).join(', ')}; ${whole(capsTotal)} in all.`}
            dates={dates}
            series={caps}
            stacked
          />
          <dl className={styles.numbers} aria-label="CAPs credited, last days">
            {CAP_KINDS.map((k) => (
              <Fragment key={k.label}>
                <dt>
                  <Swatch colour={k.colour} />
                  {k.label}
                </dt>
                <dd>{whole(total(days, k.pick))}</dd>
              </Fragment>
            ))}
            <dt>In {n} days</dt>
            <dd>{whole(capsTotal)}</dd>
            <dt>Ever</dt>
            <dd>{whole(totals.capsIssued.total)}</dd>
          </dl>
        </div>
        <DayTable
          caption="CAPs credited per UTC day, by kind"
          days={days}
          columns={[
            ['Registration', (d) => d.caps.signup],
            ['Level 1', (d) => d.caps.referralLevel1],
            ['Level 2', (d) => d.caps.referralLevel2],
            ['Level 3', (d) => d.caps.referralLevel3],
            ['Care', (d) => d.caps.careAction],
          ]}
        />
      </ChartCard>

      <ChartCard id="chart-claims" title="Claims per day">
        <div className={styles.body}>
          <Plot
            label={
              claimsKnown
                ? `Claims per day over the last ${n} days: ${whole(claimCount)} in all; the busiest day was ${busiest(days, (d) => d.claims)}.`
                : 'Claims per day: not available, the chain could not say which blocks each day holds.'
            }
            dates={dates}
            series={claims}
          />
          <dl className={styles.numbers} aria-label="Claims, last days">
            <dt>
              <Swatch colour="--chart-1" />
              Claims in {n} days
            </dt>
            <dd>{claimsKnown ? whole(claimCount) : '—'}</dd>
            <dt>Claims today</dt>
            <dd>{today?.claims == null ? '—' : whole(today.claims)}</dd>
            <dt>Busiest day</dt>
            <dd>{claimsKnown ? busiest(days, (d) => d.claims) : '—'}</dd>
          </dl>
        </div>
        {claimsKnown ? null : (
          <p className={card.muted}>
            The chain did not answer when the figures were computed, so claims cannot be placed in
            days right now.
          </p>
        )}
        <DayTable
          caption="Claims per UTC day (the blocks of that day)"
          days={days}
          columns={[['Claims', (d) => d.claims]]}
        />
      </ChartCard>

      <ChartCard id="chart-reme" title="REME distributed and claimed">
        <div className={styles.body}>
          <div>
            <div
              className={styles.meter}
              role="img"
              aria-label={`REME claimed: ${reme(claimed)} of ${reme(distributed)} distributed (${share.toLocaleString('en-GB')}%).`}
            >
              <div className={styles.meterFill} style={{ width: `${Math.min(100, share)}%` }} />
            </div>
            <div className={styles.meterScale} aria-hidden>
              <span>0</span>
              <span>{reme(distributed)}</span>
            </div>
          </div>
          <dl className={styles.numbers} aria-label="REME">
            <dt>
              Distributed
              {totals.latestRound === null ? '' : ` (round ${totals.latestRound})`}
            </dt>
            <dd>{reme(distributed)}</dd>
            <dt>
              <Swatch colour="--chart-2" />
              Claimed
            </dt>
            <dd>{reme(claimed)}</dd>
            <dt>Not yet claimed</dt>
            <dd>{reme(distributed > claimed ? distributed - claimed : 0n)}</dd>
            <dt>Claimed share</dt>
            <dd>{share.toLocaleString('en-GB')}%</dd>
          </dl>
        </div>
      </ChartCard>
    </div>
  );
}
