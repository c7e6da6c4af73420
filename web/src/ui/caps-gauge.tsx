import { GAUGE_MAX_CAPS } from '@crw/core';
import styles from './caps-gauge.module.css';

/** The circular CAPs gauge (SPEC §9: maximum 200); the ring fills up to the maximum. */
export function CapsGauge({ value, label, max = GAUGE_MAX_CAPS }: { value: number; label: string; max?: number }) {
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
          {value}
        </text>
        <text x="64" y="82" textAnchor="middle" className={styles.unit}>
          CAPs
        </text>
      </svg>
      <figcaption className={styles.caption}>{label}</figcaption>
    </figure>
  );
}
