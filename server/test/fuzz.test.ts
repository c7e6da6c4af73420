// Bad input never reaches the database as a 500 (docs/security.md): every route the app serves —
// those of the OpenAPI document and the hidden ones, checked against fastify's own list — gets
// malformed, oversized, out-of-range, NUL and unicode values in every field, as a stranger, a
// signed-in member, the operator and the console's operator. Malformed values must be refused
// with a 4xx (/rpc: a JSON-RPC error, which JSON-RPC answers in band) and change nothing in the
// database; odd but possible values (unicode, injection-looking text) must simply not fail the
// server.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';
import { consoleOperatorCookie } from './helpers/console-operator';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  format?: string;
};
interface Target {
  method: string;
  path: string;
  body?: JsonSchema;
  query: string[];
  params: string[];
  /** Path parameters that are free text: in a URL every value is text, as in a query string. */
  textParams?: string[];
  /** JSON-RPC (POST /rpc): a refusal is an answer of 200 whose every call carries an `error`, as
   * JSON-RPC 2.0 answers in band; a 4xx is a refusal too. */
  inBand?: boolean;
  /** Body fields the route hands back or ignores as they come (a JSON-RPC call's `id` and
   * `jsonrpc`): every value is possible there, so it must only not fail the server or change
   * the database. */
  echoed?: string[];
}

/** Routes the OpenAPI document hides (`hide: true`), with the inputs they read. */
const HIDDEN: Target[] = [
  { method: 'GET', path: '/dev/mail.json', query: ['to'], params: [] },
  { method: 'GET', path: '/dev/mail', query: ['to'], params: [] },
  {
    method: 'POST',
    path: '/dev/mail',
    body: {
      type: 'object',
      properties: { to: { type: 'string' }, subject: { type: 'string' }, text: { type: 'string' } },
    },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/sign-in/email',
    body: {
      type: 'object',
      properties: { email: { type: 'string' }, password: { type: 'string' } },
    },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/passkey/sign-in',
    body: {
      type: 'object',
      properties: { challengeId: { type: 'string' }, response: { type: 'object' } },
    },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/request-password-reset',
    body: {
      type: 'object',
      properties: {
        email: { type: 'string' },
        redirectTo: { type: 'string' },
        gate: { type: 'object' },
      },
    },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/send-verification-email',
    body: {
      type: 'object',
      properties: {
        email: { type: 'string' },
        callbackURL: { type: 'string' },
        gate: { type: 'object' },
      },
    },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/reset-password',
    body: {
      type: 'object',
      properties: { token: { type: 'string' }, newPassword: { type: 'string' } },
    },
    query: [],
    params: [],
  },
  { method: 'GET', path: '/auth/verify-email', query: ['token', 'callbackURL'], params: [] },
  {
    method: 'GET',
    path: '/auth/reset-password/{token}',
    query: ['callbackURL'],
    params: ['token'],
    textParams: ['token'],
  },
  {
    method: 'POST',
    path: '/auth/two-factor/verify-totp',
    body: { type: 'object', properties: { code: { type: 'string' } } },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/two-factor/verify-backup-code',
    body: { type: 'object', properties: { code: { type: 'string' } } },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/two-factor/enable',
    body: { type: 'object', properties: { password: { type: 'string' } } },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/auth/two-factor/disable',
    body: {
      type: 'object',
      properties: { password: { type: 'string' }, code: { type: 'string' } },
    },
    query: [],
    params: [],
  },
  {
    method: 'POST',
    path: '/rpc',
    body: {
      type: 'object',
      properties: {
        jsonrpc: { type: 'string' },
        id: { type: 'integer' },
        method: { type: 'string' },
        params: { type: 'array' },
      },
    },
    query: [],
    params: [],
    inBand: true,
    echoed: ['jsonrpc', 'id'],
  },
  // No input to vary: the sign-out, the keys, the test-only deletion, the metrics, the document,
  // and every other /auth path (a 404). Listed so that every route the app serves is here or in
  // the OpenAPI document (the first test checks it).
  { method: 'POST', path: '/auth/sign-out', query: [], params: [] },
  { method: 'GET', path: '/auth/.well-known/jwks.json', query: [], params: [] },
  { method: 'DELETE', path: '/dev/account', query: [], params: [] },
  { method: 'GET', path: '/metrics', query: [], params: [] },
  { method: 'GET', path: '/api/docs/json', query: [], params: [] },
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({
    method,
    path: '/auth/*',
    query: [],
    params: [],
  })),
];

/** Never valid anywhere: each must be refused (4xx) and leave the database as it was. */
const MALFORMED: unknown[] = [
  '\u0000',
  'zoë\u0000name',
  'x'.repeat(300_000),
  -1,
  2 ** 31,
  -(2 ** 63),
  2 ** 53 + 2,
  1e308,
  1.5,
  null,
  [],
  {},
  true,
  ['\u0000'],
  { $ne: null },
];
/** In a query string (and a free-text path parameter) every value is text: only these are malformed
 * there; `null`, `true` or `2147483648` arrive as those words, which a referral code may be. */
const MALFORMED_TEXT: unknown[] = ['\u0000', 'zoë\u0000name', 'x'.repeat(300_000)];
/** Possibly valid somewhere: must not fail the server. */
const ODD: unknown[] = [
  '',
  ' ',
  'Zoë ñ 中文 🤝',
  '\u202eevil',
  "' OR 1=1 --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '\ud800',
  `0x${'f'.repeat(40)}`,
  'A'.repeat(1000),
];
/** Whole bodies that are not what any route reads. */
const BAD_BODIES: Array<{ payload: string; type: string }> = [
  { payload: 'not json', type: 'application/json' },
  { payload: '[]', type: 'application/json' },
  { payload: '"\\u0000"', type: 'application/json' },
  { payload: '{"__proto__":{"polluted":true}}', type: 'application/json' },
  { payload: `${'['.repeat(5000)}${']'.repeat(5000)}`, type: 'application/json' },
  { payload: 'a=1', type: 'application/x-www-form-urlencoded' },
  { payload: 'hello', type: 'text/plain' },
];

function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object')
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]),
    );
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  return schema.format === 'email' ? 'fuzz@example.test' : 'x';
}

/** Every input field as a path into the request: body.a.b, query.x, params.y. */
function fields(target: Target): string[][] {
  const out: string[][] = [];
  const walk = (schema: JsonSchema | undefined, at: string[]) => {
    for (const [key, child] of Object.entries(schema?.properties ?? {})) {
      out.push([...at, key]);
      if (child.properties) walk(child, [...at, key]);
    }
  };
  walk(target.body, ['body']);
  for (const q of target.query) out.push(['query', q]);
  for (const p of target.params) out.push(['params', p]);
  return out;
}

/** Whether the body field at `path` is a boolean in the route's schema. */
function isBoolean(target: Target, path: string[]): boolean {
  if (path[0] !== 'body') return false;
  let schema: JsonSchema | undefined = target.body;
  for (const key of path.slice(1)) schema = schema?.properties?.[key];
  const type = Array.isArray(schema?.type) ? schema?.type : [schema?.type];
  return type.includes('boolean');
}

function withValue(
  base: Record<string, unknown>,
  path: string[],
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(base);
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

/** URLs carry UTF-8, so a lone surrogate travels as U+FFFD, as a browser sends it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function urlOf(target: Target, request: Record<string, unknown>): string {
  const text = (v: unknown) =>
    (typeof v === 'string' ? v : JSON.stringify(v)).replace(LONE_SURROGATE, '\uFFFD');
  const params = request.params as Record<string, unknown>;
  const path = target.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(text(params[name])),
  );
  const query = new URLSearchParams(
    Object.entries(request.query as Record<string, unknown>).map(([k, v]): [string, string] => [
      k,
      text(v),
    ]),
  );
  return query.size > 0 ? `${path}?${query}` : path;
}

/** Every route the app serves, as "METHOD /path/{param}": fastify prints each method's routes as
 * a tree whose segments, read from the root, spell the path. HEAD is GET's twin. */
function servedRoutes(app: TestApp['app']): string[] {
  const routes: string[] = [];
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    const above: string[] = [];
    for (const line of app.printRoutes({ method }).split('\n')) {
      const m = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
      if (!m) continue;
      const depth = m[1]!.length / 4;
      above[depth] = (above[depth - 1] ?? '') + m[2]!;
      if (m[3]) routes.push(`${method} ${above[depth]!.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}

/** A refusal: a 4xx, or for JSON-RPC an answer whose every call is an error. */
function refused(target: Target, status: number, body: string): boolean {
  if (status >= 400 && status < 500) return true;
  if (!target.inBand || status !== 200) return false;
  const answer = JSON.parse(body) as { error?: unknown } | Array<{ error?: unknown }>;
  return (Array.isArray(answer) ? answer : [answer]).every((a) => a.error !== undefined);
}

let t: TestApp;
let member: MemberKeys;
let cookie: string;
let consoleCookie: string;
let targets: Target[];

/**
 * Valid requests to start from, so one bad field is the only thing wrong and a value that slips
 * through would reach the database (a sign-up with a fresh wallet proof, a real member, …).
 */
const VALID_BODIES: Record<string, (signedIn: boolean) => Promise<unknown>> = {
  'POST /api/register': async () =>
    registerBody(t.app, await cloneMemberKeys(member), {
      device: { screen: '390x844', timeZone: 'Europe/London' },
    }),
  'PUT /api/wallet': async (signedIn) => ({
    address: member.address,
    keystore: member.keystore,
    proof: signedIn
      ? await walletProof(t.app, member, 'save-wallet', cookie)
      : { nonce: '0'.repeat(32), signature: `0x${'1'.repeat(130)}` },
  }),
  'POST /api/operator/care-actions': async () => ({
    idempotencyKey: 'fuzz-care',
    email: member.email,
    caps: 1,
    description: 'Fuzzed care action',
  }),
  'POST /api/operator/fund': async () => ({ address: member.address, eth: '0.001' }),
  'POST /dev/mail': async () => ({ to: 'fuzz@example.test', subject: 'Fuzz', text: 'Hello' }),
  'POST /auth/sign-in/email': async () => ({ email: member.email, password: 'f'.repeat(64) }),
  'POST /auth/request-password-reset': async () => ({
    email: member.email,
    redirectTo: '/reset-password',
    gate: await passGate(t.app, 'reset'),
  }),
  'POST /auth/send-verification-email': async () => ({
    email: member.email,
    callbackURL: '/?confirmed=true',
    gate: await passGate(t.app, 'resend'),
  }),
  'POST /auth/two-factor/verify-totp': async () => ({ code: '123456' }),
  'POST /auth/two-factor/verify-backup-code': async () => ({ code: 'ABCDE-12345' }),
  'POST /auth/two-factor/enable': async () => ({ password: 'f'.repeat(64) }),
  'POST /auth/two-factor/disable': async () => ({ password: 'f'.repeat(64), code: '123456' }),
  'POST /rpc': async () => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_getBalance',
    params: [member.address, 'latest'],
  }),
};

/** Every table's content as one fingerprint, except the attempt counters (counting attempts is
 * their job) and wallet challenges (the fuzzer asks for them itself to build valid sign-ups). */
async function fingerprint(): Promise<Record<string, string>> {
  const db = t.services.database.db;
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(
    db,
  );
  const prints: Record<string, string> = {};
  for (const { table_name: table } of tables.rows) {
    if (ATTEMPT_COUNTERS.includes(table)) continue;
    const row = await sql<{
      print: string | null;
    }>`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS print FROM ${sql.table(table)} t`.execute(
      db,
    );
    prints[table] = row.rows[0]?.print ?? '';
  }
  return prints;
}
const ATTEMPT_COUNTERS: string[] = ['attempt_limits', 'wallet_challenges'];

beforeAll(async () => {
  // No polling by the chain follower, whose every pass records when it last reached the node (on
  // the embedded chain it also runs after each mined transaction, which is all that changes it).
  t = await buildTestApp({
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
      CHAIN_POLL_INTERVAL_MS: '3600000',
      RPC_RATE_LIMIT_PER_MINUTE: '1000000',
      SPONSOR_CLAIMS: 'true',
    },
  });
  member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
  cookie = await signedInCookie(t.app, member);
  consoleCookie = await consoleOperatorCookie(
    t.app,
    t.services.database.db,
    await cloneMemberKeys(member),
    t.services.operatorKey,
  );
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
          requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
        }
      >
    >;
  };
  targets = [...HIDDEN];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      targets.push({
        method: method.toUpperCase(),
        path,
        body: op.requestBody?.content['application/json'].schema,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        textParams: (op.parameters ?? [])
          .filter((p) => p.in === 'path' && p.schema?.type === 'string' && !p.schema.format)
          .map((p) => p.name),
      });
    }
  }
}, 180_000);
afterAll(() => t?.close());

const AS = {
  stranger: {},
  member: () => ({ cookie, origin: ORIGIN }),
  operator: () => ({ authorization: `Bearer ${t.services.operatorKey}` }),
  // The console's operator (a session that passed two-factor), with an idempotency key.
  'console operator': () => ({
    cookie: consoleCookie,
    origin: ORIGIN,
    'idempotency-key': '5b7c1f7e-console-fuzz',
  }),
} as const;

describe(`every route against bad input (${testDbKind})`, () => {
  it('reads the routes from the OpenAPI document', () => {
    expect(targets.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/register',
        'PUT /api/wallet',
        'POST /api/operator/care-actions',
        'GET /api/distributions/{index}/tree.json',
        'POST /api/handoff/redeem',
      ]),
    );
  });

  it('has every route the app serves: in the OpenAPI document or among the hidden ones', () => {
    // A prefix's own route answers with and without its trailing slash (POST /api/handoff/).
    const known = new Set(
      targets.flatMap((r) => [`${r.method} ${r.path}`, `${r.method} ${r.path.replace(/\/$/, '')}`]),
    );
    const served = servedRoutes(t.app);
    expect(served).toEqual(
      expect.arrayContaining(['POST /rpc', 'GET /auth/reset-password/{token}']),
    );
    // The built web app's files (@fastify/static, one route each) take no input.
    const files = (route: string) =>
      route.startsWith('GET /assets/') || route === 'GET /index.html';
    expect(served.filter((route) => !known.has(route) && !files(route))).toEqual([]);
  });

  for (const [who, headersOf] of Object.entries(AS)) {
    it(`as ${who}: malformed values are refused with a 4xx and change nothing; odd ones never fail the server`, async () => {
      const headers = typeof headersOf === 'function' ? headersOf() : headersOf;
      const failures: string[] = [];
      const before = await fingerprint();
      const send = async (
        target: Target,
        request: Record<string, unknown>,
        raw?: { payload: string; type: string },
      ) => {
        const res = await t.app.inject({
          method: target.method as 'GET',
          url: urlOf(target, request),
          headers: { ...headers, ...(raw ? { 'content-type': raw.type } : {}) },
          ...(raw
            ? { payload: raw.payload }
            : target.body
              ? { payload: request.body as Record<string, unknown> }
              : {}),
        });
        return { status: res.statusCode, body: res.body };
      };
      const inputs = targets.filter((target) => fields(target).length > 0 || target.body);
      const baseOf = async (target: Target) => ({
        body:
          (await VALID_BODIES[`${target.method} ${target.path}`]?.(who === 'member')) ??
          sample(target.body),
        query: Object.fromEntries(target.query.map((q) => [q, 'x'])),
        params: Object.fromEntries(target.params.map((p) => [p, 1])),
      });
      let sent = 0;
      for (const target of inputs) {
        for (const field of fields(target)) {
          const asText =
            field[0] === 'query' ||
            (field[0] === 'params' && target.textParams?.includes(field[1]!));
          // A field the route takes as it comes must only not fail the server.
          const echoed = field[0] === 'body' && target.echoed?.includes(field[1]!);
          // `true` is malformed everywhere but in a boolean field, where it is a valid choice.
          const malformed = asText
            ? MALFORMED_TEXT
            : isBoolean(target, field)
              ? MALFORMED.filter((v) => v !== true)
              : MALFORMED;
          for (const value of malformed) {
            sent += 1;
            const { status, body } = await send(
              target,
              withValue(await baseOf(target), field, value),
            );
            if (echoed ? status >= 500 : !refused(target, status, body))
              failures.push(
                `${target.method} ${target.path} ${field.join('.')}=${JSON.stringify(value).slice(0, 40)} → ${status}`,
              );
          }
        }
        if (target.body) {
          for (const raw of BAD_BODIES) {
            sent += 1;
            const { status, body } = await send(target, await baseOf(target), raw);
            if (!refused(target, status, body))
              failures.push(
                `${target.method} ${target.path} body ${raw.payload.slice(0, 30)} → ${status}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await fingerprint()).toEqual(before);
      expect(sent).toBeGreaterThan(400);

      for (const target of inputs) {
        for (const field of fields(target)) {
          for (const value of ODD) {
            const { status } = await send(target, withValue(await baseOf(target), field, value));
            if (status >= 500)
              failures.push(
                `${target.method} ${target.path} ${field.join('.')}=${JSON.stringify(value).slice(0, 40)} → ${status}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);
  }
});
