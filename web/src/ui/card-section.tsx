import type { ReactNode } from 'react';
import card from './card.module.css';

/** A page's card: a section named by its h2 title (titleId ties the two, and tests may find it). */
export function CardSection({
  titleId,
  title,
  children,
}: {
  titleId: string;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={card.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={card.cardTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}
