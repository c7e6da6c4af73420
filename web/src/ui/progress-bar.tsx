// A themed progress bar: an empty track at 0 %, the brand colour filling it (a native <progress>
// drew a white, full-looking track in some browsers). Announced as a progressbar with its value.
import styles from './progress-bar.module.css';

export function ProgressBar({
  label,
  value,
  max = 100,
}: {
  label: string;
  value: number;
  max?: number;
}) {
  const clamped = Math.min(Math.max(value, 0), max);
  const percent = max > 0 ? (clamped / max) * 100 : 0;
  return (
    <div
      className={styles.track}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={clamped}
    >
      <div className={styles.fill} style={{ width: `${percent}%` }} />
    </div>
  );
}
