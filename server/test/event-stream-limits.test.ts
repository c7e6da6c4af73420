// Event streams cannot be hoarded: one session holds at most EVENT_STREAMS_PER_SESSION open streams
// and one client address at most EVENT_STREAMS_PER_CLIENT; a new stream past either closes the
// owner's oldest ("superseded", with a long retry), and the newest still hear the member's changes.
// (An audit held 17,110 streams from one session: open files 233 → 17,419.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { notifyMembers } from '../src/infra/db/member-notices';
import { buildTestApp, type TestApp } from './helpers/test-app';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

let t: TestApp;
let url: string;
let keys: MemberKeys;
let userId: string;

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { EVENT_STREAMS_PER_SESSION: '3', EVENT_STREAMS_PER_CLIENT: '5' },
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  keys = await cloneMemberKeys(await makeMemberKeys());
  userId = await joinAndConfirm(t.app, t.services.database.db, keys);
}, 60_000);
afterAll(() => t.close());

interface Stream {
  text: () => string;
  ended: () => boolean;
  abort: () => void;
}

/** Opens /api/events with the cookie and reads it in the background. */
async function open(cookie: string): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${url}/api/events`, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  let text = '';
  let ended = false;
  const reader = res.body!.getReader();
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  await until(() => text.includes('event: ready'));
  return { text: () => text, ended: () => ended, abort: () => controller.abort() };
}

it(`one session: the fourth stream closes the oldest, which is told to wait; the newest hear changes (${testDbKind})`, async () => {
  const cookie = await signedInCookie(t.app, keys);
  const streams: Stream[] = [];
  for (let i = 0; i < 6; i++) streams.push(await open(cookie));
  await until(() => streams.slice(0, 3).every((s) => s.ended()));
  for (const s of streams.slice(0, 3)) {
    expect(s.text()).toContain('event: superseded');
    expect(s.text()).toContain('retry: 300000');
  }
  expect(streams.slice(3).map((s) => s.ended())).toEqual([false, false, false]);
  await t.services.database.db.transaction().execute((trx) => notifyMembers(trx, [userId]));
  await until(() => streams.slice(3).every((s) => s.text().includes('event: changed')));
  for (const s of streams) s.abort();
});

it(`one client address: streams of several sessions past the cap close the oldest (${testDbKind})`, async () => {
  const sessions = [
    await signedInCookie(t.app, keys),
    await signedInCookie(t.app, keys),
    await signedInCookie(t.app, keys),
  ];
  const streams: Stream[] = [];
  for (const cookie of sessions) for (let i = 0; i < 2; i++) streams.push(await open(cookie));
  // Six streams from 127.0.0.1, five allowed: the first one opened is closed.
  await until(() => streams[0]!.ended());
  expect(streams[0]!.text()).toContain('event: superseded');
  expect(streams.slice(1).map((s) => s.ended())).toEqual([false, false, false, false, false]);
  for (const s of streams) s.abort();
});

it(`each stream is told its own reconnection delay, 0.5 to 3 s, so a stopped process's streams do not all come back at once (${testDbKind})`, async () => {
  const cookie = await signedInCookie(t.app, keys);
  const streams = [await open(cookie), await open(cookie), await open(cookie)];
  const delays = streams.map((s) => Number(/^retry: (\d+)$/m.exec(s.text())?.[1]));
  for (const delay of delays) {
    expect(delay).toBeGreaterThanOrEqual(500);
    expect(delay).toBeLessThan(3_000);
  }
  expect(new Set(delays).size).toBeGreaterThan(1);
  for (const s of streams) s.abort();
});

it(`forty requests for streams at once leave at most the cap open (${testDbKind})`, async () => {
  const cookie = await signedInCookie(t.app, keys);
  const streams = await Promise.all(Array.from({ length: 40 }, () => open(cookie)));
  await until(() => streams.filter((s) => !s.ended()).length <= 3);
  expect(streams.filter((s) => !s.ended()).length).toBe(3);
  for (const s of streams) s.abort();
});
