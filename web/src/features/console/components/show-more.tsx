// "Show more" under a paged list: the next page of an infinite query, busy while it loads.
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import styles from './console.module.css';

export function ShowMore({
  pages,
  label,
}: {
  pages: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
  };
  label: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <div className={styles.more}>
      <Button
        variant="secondary"
        className={card.small}
        busy={pages.isFetchingNextPage}
        onClick={() => void pages.fetchNextPage()}
      >
        {label}
      </Button>
    </div>
  );
}
