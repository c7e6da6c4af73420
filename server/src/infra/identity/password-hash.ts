// The server's hash of the browser-derived auth secret: scrypt with an OWASP
// parameter set (N=2^14, r=8, p=5: 16 MiB), salted per account, compared in constant time.
import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

const PARAMS = { N: 16_384, r: 8, p: 5 } as const;
const KEY_LENGTH = 32;

function scrypt(secret: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(
      secret.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...opts, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifySecret({
  hash,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !expected) return false;
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  const want = Buffer.from(expected, 'base64url');
  return want.length === key.length && timingSafeEqual(want, key);
}
