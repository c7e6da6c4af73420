// Sends one push: the payload encrypted to the browser's keys (aes128gcm, RFC 8291) and signed
// with the server's VAPID key (RFC 8292) by web-push, posted to the subscription's endpoint. The
// endpoint is the member's input, so the server posts only to https on a public address (resolved
// here: a name that points inside the network is refused) — or, outside production, to a push
// service on 127.0.0.1 over http (tests run one).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import webpush from 'web-push';
import type { Vapid } from './vapid';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface SendOptions {
  /** How long the push service keeps the push for a device that is offline. */
  ttlSeconds: number;
  /** Posts to http://127.0.0.1 too (outside production only). */
  allowLocal: boolean;
  timeoutMs?: number;
}

/** What the push service answered: accepted, or the subscription is gone (404, 410). */
export type PushOutcome = 'sent' | 'gone';

export class PushRejected extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`push service answered ${status}${detail ? `: ${detail.slice(0, 200)}` : ''}`);
  }
}

/** A public unicast address: not loopback, private, link-local, unique-local, multicast… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Resolves like dns.lookup, and fails when any address the name has is not public. */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0)
      return callback(
        Object.assign(new Error(`push endpoint ${hostname} is not a public address`), {
          code: 'ENOTPUBLIC',
        }),
        '',
        0,
      );
    if (options.all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

const agent = new https.Agent({ keepAlive: true, maxSockets: 16, lookup: publicOnly });

/** Whether the server may post to this endpoint at all (checked again at each send). */
export function endpointAllowed(endpoint: string, allowLocal: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'http:') return allowLocal && url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' || (url.port !== '' && url.port !== '443')) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address written in the URL must be public; a name is resolved when the push is sent.
  if (ipaddr.isValid(host)) return isPublicAddress(host);
  return host.includes('.') && !/(^|\.)(localhost|local|internal|lan|home)$/i.test(host);
}

export function sendPush(
  target: PushTarget,
  payload: string,
  vapid: Vapid,
  options: SendOptions,
): Promise<PushOutcome> {
  if (!endpointAllowed(target.endpoint, options.allowLocal))
    return Promise.reject(new Error('push endpoint not allowed'));
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    {
      vapidDetails: vapid,
      TTL: options.ttlSeconds,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    },
  );
  const url = new URL(details.endpoint);
  const local = url.protocol === 'http:';
  return new Promise<PushOutcome>((resolve, reject) => {
    const request = (local ? http : https).request(
      url,
      {
        method: details.method,
        headers: details.headers as http.OutgoingHttpHeaders,
        ...(local ? {} : { agent }),
        timeout: options.timeoutMs ?? 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 4096) chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve('sent');
          else if (status === 404 || status === 410) resolve('gone');
          else reject(new PushRejected(status, Buffer.concat(chunks).toString('utf8')));
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('push service did not answer in time')));
    request.on('error', reject);
    request.end(details.body ?? undefined);
  });
}
