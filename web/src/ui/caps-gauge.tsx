import { GAUGE_MAX_CAPS } from '@crw/core';
import styles from './caps-gauge.module.css';

interface GaugeProps {
  value: number;
  /** What the gauge measures, in words: its accessible name says "{label}: {value} of {max}". */
  label: string;
  max?: number;
  /** The figure in the ring and its unit (default: the value, "CAPs"). */
  centre?: { figure: number; unit: string };
  /** The words under the ring (default: the label). */
  caption?: string;
}

/** The circular CAPs gauge; the ring fills up to the maximum (200 unless told). */
export function CapsGauge({
  value,
  label,
  max = GAUGE_MAX_CAPS,
  centre = { figure: value, unit: 'CAPs' },
  caption = label,
}: GaugeProps) {
  const radius = 52;
  const circumference = 2 * Math.PI * radius;
  const filled = Math.min(1, Math.max(0, value / max));
  return (
    <figure className={styles.gauge}>
      <svg viewBox="0 0 128 128" role="img" aria-label={`${label}: ${value} of ${max}`}>
        <circle className={styles.track} cx="64" cy="64" r={radius} />
        <circle
          className={styles.fill}
          cx="64"
          cy="64"
          r={radius}
          strokeDasharray={`${circumference * filled} ${circumference}`}
          transform="rotate(-90 64 64)"
        />
        <text x="64" y="62" textAnchor="middle" className={styles.value}>
          {centre.figure}
        </text>
        <text x="64" y="82" textAnchor="middle" className={styles.unit}>
          {centre.unit}
        </text>
      </svg>
      <figcaption className={styles.caption}>{caption}</figcaption>
    </figure>
  );
}
