// A push service on 127.0.0.1 for tests and journeys, standing in for FCM, Mozilla's or Apple's:
// it hands out browser-side subscriptions (its own P-256 keys and auth secret, as a browser makes
// them), and for each push posted to one it checks the VAPID signature (RFC 8292) and decrypts the
// aes128gcm payload (RFC 8291, RFC 8188) with node:crypto alone — not with the library that
// encrypted it, so a mistake on the sending side cannot cancel itself out. An endpoint can be made
// to answer 410 (the subscription is gone) or another failure.
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  /** The subscription's id (the last part of its endpoint). */
  id: string;
  /** The decrypted payload. */
  text: string;
  ttl: number;
  urgency: string | undefined;
  /** The VAPID public key the push was signed with (verified), base64url. */
  vapidKey: string;
  /** The JWT's subject (contact) claim. */
  subject: string;
}

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushService {
  url: string;
  /** A new browser-side subscription on this service. */
  subscribe(): TestSubscription;
  received: ReceivedPush[];
  /** The next pushes to this subscription are answered with `status` (410: gone). */
  answer(id: string, status: number): void;
  /** Requests refused: a bad signature, a payload that does not decrypt (with why). */
  refused: string[];
  close(): Promise<void>;
}

const b64u = (buf: Buffer) => buf.toString('base64url');
const fromB64u = (text: string) => Buffer.from(text, 'base64url');

/** The verified VAPID header: `vapid t=<JWT>, k=<public key>`; throws when it does not verify. */
function checkVapid(header: string | undefined, audience: string): { key: string; sub: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), ?k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [, jwt, key] = match as unknown as [string, string, string];
  const raw = fromB64u(key);
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('VAPID key is not a P-256 point');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33)) },
    format: 'jwk',
  });
  const [head, body, signature] = jwt.split('.') as [string, string, string];
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    fromB64u(signature),
  );
  if (!signed) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(fromB64u(body).toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (claims.aud !== audience) throw new Error(`VAPID audience ${claims.aud} is not ${audience}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600))
    throw new Error('VAPID exp out of range');
  return { key, sub: claims.sub };
}

/** RFC 8291 §3.4 and RFC 8188: one record, padding delimiter 2. */
function decrypt(
  body: Buffer,
  uaPrivate: ReturnType<typeof createECDH>,
  authSecret: Buffer,
): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error('keyid is not the sender’s P-256 key');
  const uaPublic = uaPrivate.getPublicKey();
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  if (plain[end] !== 2) throw new Error('last record lacks its padding delimiter');
  return plain.subarray(0, end).toString('utf8');
}

export async function startPushService(): Promise<PushService> {
  const subscriptions = new Map<
    string,
    { ecdh: ReturnType<typeof createECDH>; auth: Buffer; status: number }
  >();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1] ?? '';
      const subscription = subscriptions.get(id);
      if (request.method !== 'POST' || !subscription) {
        response.writeHead(404).end();
        return;
      }
      if (subscription.status !== 201) {
        response.writeHead(subscription.status).end('answered as told');
        return;
      }
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`content-encoding ${request.headers['content-encoding']}`);
        const vapid = checkVapid(request.headers.authorization, `http://${request.headers.host}`);
        received.push({
          id,
          text: decrypt(Buffer.concat(chunks), subscription.ecdh, subscription.auth),
          ttl: Number(request.headers.ttl),
          urgency: request.headers.urgency as string | undefined,
          vapidKey: vapid.key,
          subject: vapid.sub,
        });
        response.writeHead(201).end();
      } catch (error) {
        refused.push((error as Error).message);
        response.writeHead(400).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    refused,
    subscribe() {
      const id = b64u(randomBytes(12));
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, auth, status: 201 });
      return {
        id,
        endpoint: `${url}/push/${id}`,
        keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
      };
    },
    answer(id, status) {
      const subscription = subscriptions.get(id);
      if (subscription) subscription.status = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
