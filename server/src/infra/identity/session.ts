// The per-request session check. better-auth stays the authority: a session it has not vouched for
// recently is asked of it (one indexed query, which also extends a session in use). What it
// vouched for is remembered for SESSION_CHECK_CACHE_SECONDS, so a dashboard's polls cost no query.
// A session that ends — sign-out, password reset, revoked, its user deleted, by better-auth or by
// our SQL — is forgotten at once in this process (better-auth's delete hook) and, through the
// session table's trigger (migration 0010) and NOTIFY session_ended, in every other process within
// milliseconds. Should that notice be lost (the listening connection dropped), the whole memory is
// cleared on reconnect; the cache's lifetime bounds what remains (docs/security.md).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../app-error';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import type { Auth } from './auth';

export const SESSION_ENDED_CHANNEL = 'session_ended';
/** The NOTIFY payload that clears every process's memory of sessions. */
export const EVERY_SESSION = '*';

interface Vouched {
  userId: string;
  /** The session's own expiry. */
  expiresAt: number;
  /** When this memory of it lapses (at most the cache lifetime after better-auth vouched). */
  until: number;
}

/** Sessions better-auth vouched for, by the SHA-256 of their token (the memory holds no token). */
export class SessionCache {
  readonly #entries = new Map<string, Vouched>();
  #unlisten: (() => Promise<void>) | undefined;
  readonly #ended = new Set<(key: string) => void>();
  /** Counts the sessions forgotten: an answer better-auth gave before one ended is not kept. */
  #epoch = 0;

  constructor(
    readonly lifetimeMs: number,
    readonly maxEntries = 100_000,
  ) {}

  static key(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }

  get(key: string, now = Date.now()): Vouched | undefined {
    const entry = this.#entries.get(key);
    if (entry && (entry.until <= now || entry.expiresAt <= now)) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Call before asking better-auth; pass it to `remember` with the answer. */
  epoch(): number {
    return this.#epoch;
  }

  remember(
    key: string,
    userId: string,
    expiresAt: number,
    epochBeforeAsking: number,
    now = Date.now(),
  ): void {
    // A session that ended while better-auth was being asked may be the one it vouched for.
    if (this.lifetimeMs <= 0 || epochBeforeAsking !== this.#epoch) return;
    this.#entries.delete(key);
    // Map order is insertion order: past the bound, the longest-held go first.
    while (this.#entries.size >= this.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, {
      userId,
      expiresAt,
      until: Math.min(expiresAt, now + this.lifetimeMs),
    });
  }

  forget(key: string): void {
    this.#epoch++;
    if (key === EVERY_SESSION) this.#entries.clear();
    else this.#entries.delete(key);
    for (const listener of this.#ended) listener(key);
  }

  /** Told of every session that ends (its key, or EVERY_SESSION when notices may have been
   * missed): the event streams of that session close with "signed-out". */
  onEnded(listener: (key: string) => void): () => void {
    this.#ended.add(listener);
    return () => this.#ended.delete(listener);
  }

  forgetToken(token: string): void {
    this.forget(SessionCache.key(token));
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Every process hears of every session that ends (the payload is the token's SHA-256). */
  async start(database: Database): Promise<void> {
    this.#unlisten = await database.listen(
      SESSION_ENDED_CHANNEL,
      (key) => this.forget(key),
      () => this.forget(EVERY_SESSION),
    );
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
    this.#unlisten = undefined;
    this.#entries.clear();
  }
}

export interface CurrentSession {
  userId: string;
  token: string;
  key: string;
}

/** The member a request's session cookie belongs to. */
export class SessionCheck {
  #cookie: Promise<{ name: string; secret: string }> | undefined;

  constructor(
    readonly auth: Auth,
    readonly cache: SessionCache,
  ) {}

  /** The signed-in member's id, or 401 'User not authenticated'. */
  async requireUserId(request: FastifyRequest): Promise<string> {
    const userId = await this.userId(request);
    if (!userId) throw new AppError(401, 'unauthorized');
    return userId;
  }

  async userId(request: FastifyRequest): Promise<string | null> {
    return (await this.current(request))?.userId ?? null;
  }

  /** The signed-in member, their session's token and its SHA-256 (as session_ended names it). */
  async current(request: FastifyRequest): Promise<CurrentSession | null> {
    const token = await this.#signedToken(request.headers.cookie);
    if (token === null) return null;
    const key = SessionCache.key(token);
    const known = this.cache.get(key);
    if (known) return { userId: known.userId, token, key };
    const epoch = this.cache.epoch();
    const session = await this.auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    // What better-auth checked is the cookie's token; only that token is the session asked about.
    if (!session || session.session.token !== token) return null;
    this.cache.remember(key, session.user.id, new Date(session.session.expiresAt).getTime(), epoch);
    return { userId: session.user.id, token, key };
  }

  /** As `current`, or 401 'User not authenticated'. */
  async requireCurrent(request: FastifyRequest): Promise<CurrentSession> {
    const current = await this.current(request);
    if (!current) throw new AppError(401, 'unauthorized');
    return current;
  }

  /** The session token from a correctly signed session cookie (better-call's format), else null. */
  async #signedToken(header: string | undefined): Promise<string | null> {
    if (!header) return null;
    this.#cookie ??= this.auth.$context.then((ctx) => ({
      name: ctx.authCookies.sessionToken.name,
      secret: ctx.secret,
    }));
    const { name, secret } = await this.#cookie;
    const raw = cookieValue(header, name);
    if (raw === null) return null;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const dot = value.lastIndexOf('.');
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    if (signature.length !== 44 || !signature.endsWith('=')) return null;
    const expected = createHmac('sha256', secret).update(token).digest();
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
  }
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Marks a session as seen now (the account page's "last seen"). */
export async function markSessionSeen(db: Kysely<DB>, token: string): Promise<void> {
  await sql`UPDATE session SET "updatedAt" = now() WHERE token = ${token}`.execute(db);
}
