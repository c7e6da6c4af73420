// A WebAuthn authenticator in software for server tests and benchmarks: it makes P-256 passkeys
// ("none" attestation) and signs challenges as a phone or security key does, so the server's real
// checks (@simplewebauthn/server) run against real signatures. Browser journeys use Chromium's own
// virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { PasskeyAuthenticationResponse, PasskeyRegistrationResponse } from '@crw/core';

/** CBOR (RFC 8949) for the few shapes WebAuthn needs: integers, text, bytes and maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface SoftCredential {
  id: Buffer;
  rpId: string;
  privateKey: KeyObject;
  counter: number;
  userHandle: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `userVerified`: whether it reports the device's lock as checked (UV). */
  constructor(
    readonly origin: string,
    readonly userVerified = true,
  ) {}

  private authData(rpId: string, counter: number, attested?: Buffer): Buffer {
    const flags = 0x01 | (this.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  }

  /** navigator.credentials.create: a new passkey for the options' site and user. */
  create(options: CreationOptions, opts: { prf?: boolean } = {}): PasskeyRegistrationResponse {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(32);
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey]);
    const authData = this.authData(rpId, 0, attested);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    this.credentials.push({ id, rpId, privateKey, counter: 0, userHandle: options.user.id });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: opts.prf ? { prf: { enabled: true } } : {},
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(
          cbor(
            new Map<Cbor, Cbor>([
              ['fmt', 'none'],
              ['attStmt', new Map()],
              ['authData', authData],
            ]),
          ),
        ),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get: a signature over the challenge with one of its passkeys (the
   * newest it holds for the site, or one the options allow). */
  get(options: RequestOptions, credential?: SoftCredential): PasskeyAuthenticationResponse {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((c) => c.id);
    const chosen =
      credential ??
      [...this.credentials]
        .reverse()
        .find((c) => c.rpId === rpId && (!allowed?.length || allowed.includes(b64url(c.id))));
    if (!chosen) throw new Error('no passkey for this site');
    chosen.counter += 1;
    const authData = this.authData(rpId, chosen.counter);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      chosen.privateKey,
    );
    return {
      id: b64url(chosen.id),
      rawId: b64url(chosen.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: chosen.userHandle,
      },
    };
  }
}
