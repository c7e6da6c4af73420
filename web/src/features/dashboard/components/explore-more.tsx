// Explore More: Community Builder, the care-finance hub (COMING SOON), Market (new tab),
// a further token feature and the Rewards Hub (both coming soon); and the sister community app,
// opened with a one-time hand-off code (never the session).
import { MARKET_FIAT_CEILING_REME } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Gift, HeartHandshake, Landmark, Store, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { publicConfigQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { notify } from '../../../ui/toaster';
import { createHandoff } from '../api/community-app';
import styles from './dashboard.module.css';

export function ExploreMore() {
  const config = useQuery(publicConfigQuery);
  return (
    <CardSection titleId="explore-title" title="Explore More">
      <ul className={styles.exploreGrid}>
        <li>
          <Link to="/rcb" className={styles.exploreCard}>
            <Users aria-hidden="true" />
            <span className={styles.exploreName}>Community Builder</span>
            <span className={styles.exploreText}>See your network and invite friends.</span>
          </Link>
        </li>
        <li>
          <Link to="/convert-caps" className={styles.exploreCard}>
            <Landmark aria-hidden="true" />
            <span className={styles.exploreName}>Care Finance Hub</span>
            <span className={styles.exploreText}>
              Convert the CAPs you earn for care into REME.
            </span>
          </Link>
        </li>
        <li>
          {config.data ? (
            <a
              href={config.data.links.market}
              target="_blank"
              rel="noreferrer"
              className={styles.exploreCard}
            >
              <Store aria-hidden="true" />
              <span className={styles.exploreName}>
                Market <ExternalLink aria-label="(opens in a new tab)" size={14} />
              </span>
              <span className={styles.exploreText}>
                Use up to {MARKET_FIAT_CEILING_REME.toLocaleString('en-GB')} REME in the market; any
                REME above that is for swap or cash-out.
              </span>
            </a>
          ) : null}
        </li>
        <li>
          <div className={`${styles.exploreCard} ${styles.exploreDisabled}`} aria-disabled="true">
            <HeartHandshake aria-hidden="true" />
            <span className={styles.exploreName}>
              REME Care Savings <span className={card.badge}>Coming Soon</span>
            </span>
            <span className={styles.exploreText}>Save REME towards future care.</span>
          </div>
        </li>
        <li>
          {/* Not open yet: marked coming soon like its neighbours (struck-through text read as broken). */}
          <div className={`${styles.exploreCard} ${styles.exploreDisabled}`} aria-disabled="true">
            <Gift aria-hidden="true" />
            <span className={styles.exploreName}>
              Rewards Hub <span className={card.badge}>Coming Soon</span>
            </span>
          </div>
        </li>
      </ul>
      <div className={styles.actionRow}>
        <CommunityAppLink />
      </div>
    </CardSection>
  );
}

/** Opens the sister app with a fresh one-time code as `authtoken`. */
function CommunityAppLink() {
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    // Opened before the request so the browser treats it as the click's own window.
    const tab = window.open('', '_blank');
    try {
      const { url } = await createHandoff();
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else window.location.assign(url);
    } catch (error) {
      tab?.close();
      notify.error(`The community app could not be opened: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="secondary" className={card.small} busy={busy} onClick={() => void open()}>
      Open the Community App
      <ExternalLink aria-hidden="true" size={16} />
    </Button>
  );
}
