import card from './card.module.css';

/** A labelled figure in a box (network size, a level count, …). */
export function Stat({
  label,
  value,
  testId,
  as: Tag = 'div',
}: {
  label: string;
  value: number;
  testId?: string;
  as?: 'div' | 'li';
}) {
  return (
    <Tag className={card.stat}>
      <span className={card.muted}>{label}</span>
      <span className={card.statValue} data-testid={testId}>
        {value}
      </span>
    </Tag>
  );
}
