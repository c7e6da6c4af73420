// Business constants and limits, in one place (docs/product.md, "Rules and numbers").

/** Token and ETH use 18 decimals (base unit 10^18). */
export const TOKEN_DECIMALS = 18;
export const BASE_UNIT = 10n ** 18n;
/** Amounts are displayed with 4 decimals. */
export const DISPLAY_DECIMALS = 4;

/** Signup bonus: 200 tokens. Signup CAPs are 200 everywhere, the notice included. */
export const SIGNUP_CAPS = 200;
export const SIGNUP_REME = 200n * BASE_UNIT;

/** Referral CAPs and REME per level (levels 1, 2, 3). */
export const REFERRAL_CAPS_BY_LEVEL = [100, 50, 25] as const;
export const REFERRAL_REME_BY_LEVEL = [100n * BASE_UNIT, 50n * BASE_UNIT, 25n * BASE_UNIT] as const;
export const REFERRAL_GOAL_FRIENDS = 5;
/** The goal bonuses (coming soon: shown, not credited). */
export const REFERRAL_GOAL_BONUSES = [
  { friends: 5, caps: 50 },
  { friends: 10, caps: 100 },
] as const;
export const goalBonusText = () =>
  `Bonus of ${REFERRAL_GOAL_BONUSES.map((b) => `${b.caps} CAPs at ${b.friends} referrals`).join(' and ')}: coming soon.`;
export const GAUGE_MAX_CAPS = 200;

/** The one CAPs-to-REME rate, 6,028 CAPs for 1,000 REME: the convert page's "6.028 CAPs per REME"
 * and the swap modal's "0.166 REME per CAP" are this rate rounded two ways. */
export const CAPS_REME_RATE = { caps: 6028n, reme: 1000n } as const;
export const MARKET_FIAT_CEILING_REME = 1000;

/** Every new password (sign-up, reset, change); sign-in still takes an older, shorter one. */
export const PASSWORD_MIN_LENGTH = 8;
export const MNEMONIC_WORDS = 12;
/** The recovery phrase's download, named for what it is (the original's was mnemonic.txt). */
export const RECOVERY_PHRASE_FILE_NAME = 'reme-wallet-recovery-phrase.txt';

export const DEFAULT_REFERRAL_CODE = 'TS0001';
export const PENDING_REFERRAL_EXPIRY_MS = 24 * 60 * 60 * 1000;

export const DASHBOARD_REFRESH_MS = 10_000;
export const COPIED_INDICATOR_MS = 2_000;
export const SIGNUP_REDIRECT_MS = 1_500;

export const TOAST_DURATION_MS = 5_000;
export const TOAST_MAX_VISIBLE = 5;

export const ADDRESS_DISPLAY = { head: 6, tail: 4 } as const;

/** The themes a screen is drawn in: two dark ones and a light one. */
export const THEMES = ['aurora', 'crimson', 'light'] as const;
export type Theme = (typeof THEMES)[number];
/** What a member chooses: a theme, or the system's setting (light or dark, then Aurora). */
export const APPEARANCES = ['system', ...THEMES] as const;
export type Appearance = (typeof APPEARANCES)[number];
export const LAYOUTS = ['modern', 'compact'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const TOOLTIP_DELAY_MS = 200;
export const TOOLTIP_SKIP_DELAY_MS = 150;

/** Local storage keys (token/encToken are replaced by the session cookie). */
export const STORAGE_KEYS = {
  user: 'user',
  allowed: 'allowed',
  referralFlag: 'refferal',
  rcbLayout: 'rcb-layout',
  rcbBackground: 'rcb-background',
  rcbPreloadData: 'rcb-preload-data',
  /** The pending referral kept in browser storage. */
  pendingReferral: 'pending-referral',
  /** The broadcast claim the dashboard's Processing card follows (this app's own key; the other
   * keys are the original product's). */
  pendingClaim: 'claim-transaction',
  /** The member's figures as last read, shown when an offline reload cannot read them again. */
  lastDetails: 'last-details',
  /** The install card was closed (it is not offered again on this device). */
  installCardDismissed: 'install-card-dismissed',
  /** When the "sign in faster next time" card was last closed (ms since the epoch): it waits 14
   * days before it is offered again on this device. */
  passkeyPromptClosedAt: 'passkey-prompt-closed-at',
} as const;
