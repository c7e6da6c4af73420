import { findReferralCode } from '@crw/core';
import { useLocation } from 'react-router';
import { ScreenPlaceholder } from '../../../ui/screen-placeholder';

export function Component() {
  const location = useLocation();
  const referralCode = findReferralCode(location);
  return (
    <ScreenPlaceholder name="Welcome Back">
      {referralCode ? <p>Referral code: {referralCode}</p> : null}
    </ScreenPlaceholder>
  );
}
