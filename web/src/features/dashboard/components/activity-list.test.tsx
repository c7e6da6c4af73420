// The activity's lines in the member's words: security events behind a shield ("New sign-in on
// Chrome on Android", "Password changed", …) with nothing to their right, and a claim the community
// made for the member ("Claimed for you: 200.00 REME are in your wallet").
import { SECURITY_EVENT_KINDS, type ActivityItem } from '@crw/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityLines, activityLine } from './activity-list';

afterEach(cleanup);

const item = (over: Partial<ActivityItem>): ActivityItem => ({
  id: 'x',
  kind: 'security',
  at: '2026-11-26T10:00:00.000Z',
  caps: null,
  reme: null,
  level: null,
  friend: null,
  description: null,
  round: null,
  held: false,
  releaseAt: null,
  ...over,
});

describe('activityLine: security events', () => {
  it.each([
    ['new_device', 'Chrome on Android', 'New sign-in on Chrome on Android'],
    ['new_device', null, 'New sign-in on a new device'],
    ['password_changed', 'Firefox on Windows', 'Password changed'],
    ['two_factor_on', null, 'Two-factor sign-in turned on'],
    ['two_factor_off', null, 'Two-factor sign-in turned off'],
    ['export', 'Safari on iOS', 'Your data was downloaded'],
    ['deletion_requested', null, 'Account deletion requested'],
    ['passkey_added', 'Safari on iOS', 'Passkey added on Safari on iOS'],
  ] as const)('%s (%s) reads "%s", worth nothing', (event, device, words) => {
    expect(activityLine(item({ securityEvent: event, device }))).toEqual({
      what: words,
      worth: '',
    });
  });

  it('has words for every kind the server may send, and plain ones for a kind it does not know', () => {
    for (const event of SECURITY_EVENT_KINDS)
      expect(activityLine(item({ securityEvent: event })).what).not.toMatch(/undefined|null|_/);
    expect(activityLine(item({})).what).toBe('A change to your account’s security');
  });
});

describe('activityLine: claims', () => {
  it('a claim made for the member says so and where the REME are; one they asked for as before', () => {
    const claim = item({ kind: 'claimed', reme: '200000000000000000000' });
    expect(activityLine({ ...claim, forYou: true })).toEqual({
      what: 'Claimed for you: 200.00 REME are in your wallet',
      worth: '',
    });
    expect(activityLine({ ...claim, forYou: false })).toEqual({
      what: 'Claimed to your wallet (free)',
      worth: '200.00 REME',
    });
    expect(activityLine(claim).what).toBe('Claimed to your wallet (free)');
  });

  it('a claim that could not be sent says so and why', () => {
    const failed = item({
      kind: 'claim_failed',
      reme: '200000000000000000000',
      description: 'A new distribution round was published before this claim was sent.',
    });
    expect(activityLine(failed)).toEqual({
      what: 'A claim of 200.00 REME could not be sent: A new distribution round was published before this claim was sent.',
      worth: '',
    });
    expect(activityLine({ ...failed, description: null }).what).toBe(
      'A claim of 200.00 REME could not be sent',
    );
  });
});

describe('ActivityLines', () => {
  it('puts a shield, hidden from screen readers, before each security line only, and marks the new ones', () => {
    render(
      <ActivityLines
        testId="activity"
        newAfter="2026-11-26T09:00:00.000Z"
        items={[
          item({ id: 's1', securityEvent: 'new_device', device: 'Chrome on Android' }),
          item({
            id: 's2',
            securityEvent: 'password_changed',
            at: '2026-11-25T10:00:00.000Z',
          }),
          item({
            id: 'j',
            kind: 'joined',
            caps: 200,
            at: '2026-11-24T10:00:00.000Z',
          }),
        ]}
      />,
    );
    const lines = screen.getAllByRole('listitem');
    expect(lines.map((l) => l.textContent)).toEqual([
      'NewNew sign-in on Chrome on Android26 Nov 2026',
      'Password changed25 Nov 2026',
      'You joined the community+200 CAPs24 Nov 2026',
    ]);
    expect(lines.map((l) => l.querySelectorAll('svg[aria-hidden="true"]').length)).toEqual([
      1, 1, 0,
    ]);
  });
});
