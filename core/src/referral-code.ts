// Where a referral code may arrive from and what counts as one.
import { DEFAULT_REFERRAL_CODE } from './constants';

export const REFERRAL_CODE_MAX_LENGTH = 16;
const REFERRAL_CODE_PATTERN = new RegExp(`^[A-Za-z0-9]{1,${REFERRAL_CODE_MAX_LENGTH}}$`);

export type ReferralCodeInput =
  { kind: 'none' } | { kind: 'invalid' } | { kind: 'code'; code: string };

/** What a typed or linked code means: nothing (empty, or the default TS0001), a bad code, or a code (upper-cased). */
export function readReferralCode(raw: string | null | undefined): ReferralCodeInput {
  const candidate = raw?.trim() ?? '';
  if (candidate === '') return { kind: 'none' };
  if (!REFERRAL_CODE_PATTERN.test(candidate)) return { kind: 'invalid' };
  const code = candidate.toUpperCase();
  return code === DEFAULT_REFERRAL_CODE ? { kind: 'none' } : { kind: 'code', code };
}

/** A code of letters and digits, upper-cased; TS0001 (the default) and anything else mean no referral. */
export function normalizeReferralCode(raw: string | null | undefined): string | null {
  const input = readReferralCode(raw);
  return input.kind === 'code' ? input.code : null;
}

/** The text an unknown or malformed code gets, naming the code as it was typed. */
export function invalidReferralCodeMessage(code: string): string {
  return `Invalid referral code: ${code}. Please check the code and try again.`;
}

/** A member's own code: 8 letters and digits, without look-alikes (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newReferralCode(randomBytes: Uint8Array): string {
  return [...randomBytes.slice(0, 8)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

export interface UrlParts {
  pathname: string;
  search: string;
  hash: string;
}

const PATH_PATTERN = /^\/(?:r|signup)\/([^/]+)\/?$/;

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** The raw code carried by /r/{code} or /signup/{code}, if the path is one of those. */
export function referralCodeInPath(pathname: string): string | null {
  const match = PATH_PATTERN.exec(pathname);
  return match?.[1] ? safeDecode(match[1]) : null;
}

/**
 * The referral code of a URL: query `ref` or `referral`, then the path /r/{code} or
 * /signup/{code}, then the hash `ref=`. The first valid one wins; null when there is none.
 */
export function findReferralCode(url: UrlParts): string | null {
  const query = new URLSearchParams(url.search);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const candidates = [
    query.get('ref'),
    query.get('referral'),
    referralCodeInPath(url.pathname),
    hash.get('ref'),
  ];
  for (const candidate of candidates) {
    const code = normalizeReferralCode(candidate);
    if (code) return code;
  }
  return null;
}
