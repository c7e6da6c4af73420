import {
  friendsToMilestone,
  nextCapsMilestone,
  REFERRAL_CAPS_BY_LEVEL,
  SIGNUP_CAPS,
  type CapsBreakdown as Breakdown,
} from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { publicConfigQuery } from '../../../lib/session';
import { ConversionRule } from './convert-form';
import { CapsGauge } from '../../../ui/caps-gauge';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { Tooltip } from '../../../ui/tooltip';
import styles from './dashboard.module.css';

/** The registration CAPs as the breakdown counts them (the original's tooltip said 20: docs/product.md). */
const REGISTRATION_TOOLTIP = `${SIGNUP_CAPS} CAPs on registering as a member`;

/**
 * The CAPs breakdown — registration, referrals, care actions — with the gauge. The total is
 * the CAPs balance's, shown there once (it was shown four times), and the gauge measures
 * progress toward the next milestone (its maximum was the registration CAPs: full for everyone new).
 */
export function CapsBreakdown({ caps }: { caps: Breakdown }) {
  const config = useQuery(publicConfigQuery);
  const { milestone, remaining } = nextCapsMilestone(caps.total);
  const friends = friendsToMilestone(remaining);
  const rows: Array<[string, number]> = [
    ['Referrals', caps.referrals],
    ['Care actions', caps.careActions],
  ];
  return (
    <CardSection titleId="caps-title" title="How you earned your CAPs">
      <div className={styles.breakdown}>
        <dl className={card.grid}>
          <div className={card.stat}>
            <dt className={card.muted}>
              Registration{' '}
              <Tooltip text={REGISTRATION_TOOLTIP}>
                <button
                  type="button"
                  className={styles.infoButton}
                  aria-label="About registration CAPs"
                >
                  <Info aria-hidden="true" size={14} />
                </button>
              </Tooltip>
            </dt>
            <dd className={card.statValue}>{caps.registration}</dd>
          </div>
          {rows.map(([label, value]) => (
            <div key={label} className={card.stat}>
              <dt className={card.muted}>{label}</dt>
              <dd className={card.statValue}>{value}</dd>
              {label === 'Care actions' && caps.converted > 0 ? (
                <dd className={card.muted} data-testid="caps-converted">
                  {caps.converted.toLocaleString('en-GB')} converted to REME
                </dd>
              ) : null}
            </div>
          ))}
        </dl>
        <CapsGauge
          value={caps.total}
          max={milestone}
          label="Progress to your next milestone, in CAPs"
          centre={{ figure: remaining, unit: 'CAPs to go' }}
          caption={`Next milestone: ${milestone.toLocaleString('en-GB')} CAPs`}
        />
      </div>
      {config.data ? <ConversionRule setting={config.data.conversion} /> : null}
      <p className={card.muted}>
        Each friend who joins through your link adds {REFERRAL_CAPS_BY_LEVEL[0]} CAPs:{' '}
        {friends === 1 ? 'one more friend' : `about ${friends} friends`} would take you to{' '}
        {milestone.toLocaleString('en-GB')}.
      </p>
    </CardSection>
  );
}
