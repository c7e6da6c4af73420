// What a sign-up looked like, kept while its rewards are held (migration 0026): the network it
// came from and a coarse class of the browser — its family and system, the screen size and the
// time zone — hashed, so it says "the same kind of browser" and never who.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface SignupSignals {
  network: string;
  deviceClass: string | null;
}

const FAMILIES: Array<[RegExp, string]> = [
  [/Edg\//, 'edge'],
  [/Firefox\//, 'firefox'],
  [/Chrome\/|Chromium\//, 'chrome'],
  [/Safari\//, 'safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, 'android'],
  [/iPhone|iPad|iPod/, 'ios'],
  [/Windows/, 'windows'],
  [/Mac OS X|Macintosh/, 'mac'],
  [/Linux/, 'linux'],
];

const firstMatch = (text: string, table: Array<[RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(text))?.[1] ?? 'other';

/** The hashed class, or null when the browser said nothing of its screen and time zone. */
export function deviceClass(
  userAgent: string | undefined,
  device: { screen: string; timeZone: string } | undefined,
): string | null {
  if (!device) return null;
  const agent = userAgent ?? '';
  const parts = [
    firstMatch(agent, FAMILIES),
    firstMatch(agent, SYSTEMS),
    device.screen,
    device.timeZone,
  ];
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** The member opened the app: the first time marks the sign-up (no write after that), so the
 * joining is not flagged never_opened when its hold ends. */
export async function markAppOpened(db: Kysely<DB>, userId: string): Promise<void> {
  await db
    .updateTable('signup_signals')
    .set({ opened_at: new Date() })
    .where('user_id', '=', userId)
    .where('opened_at', 'is', null)
    .execute();
}
