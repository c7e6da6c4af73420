// The server's VAPID identity (RFC 8292): the key pair every push is signed with, and the contact
// push services may use. Given in production (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: every process
// must sign with the same pair, or browsers' subscriptions stop working); otherwise made at first
// start and kept in DATA_DIR/vapid-keys (0600), so a restart keeps every subscription.
import webpush from 'web-push';
import type { Config } from '../../config';
import { keyFromFile } from '../../key-file';

export const VAPID_KEY_FILE = 'vapid-keys';

export interface Vapid {
  /** base64url, the uncompressed P-256 point browsers take as applicationServerKey. */
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Who push services may contact: VAPID_SUBJECT, else PUBLIC_URL when it is https, else the main
 * site, else the sender's address. Never a localhost URL (Apple's service refuses it). */
function subjectOf(config: Config): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  for (const url of [config.publicUrl, config.MAIN_SITE_URL]) {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' && parsed.hostname !== 'localhost') return url;
  }
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}

export async function vapidKeys(config: Config): Promise<Vapid> {
  const subject = subjectOf(config);
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return {
      publicKey: config.VAPID_PUBLIC_KEY,
      privateKey: config.VAPID_PRIVATE_KEY,
      subject,
    };
  const kept = JSON.parse(
    await keyFromFile(config.dataDir, VAPID_KEY_FILE, () =>
      JSON.stringify(webpush.generateVAPIDKeys()),
    ),
  ) as { publicKey: string; privateKey: string };
  return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
}
