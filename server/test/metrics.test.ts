// GET /metrics: Prometheus text for the operator (its key), with requests by route pattern, the
// mail outbox and distribution rounds, read when scraped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndConfirm, makeMemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);
afterAll(() => t?.close());

const scrape = async () => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
};
const value = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}()[\]."/]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

describe(`/metrics (${testDbKind})`, () => {
  it('is for the operator key only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: 'Bearer nope' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/distributions/7/tree.json' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing-123' });
    const text = await scrape();
    expect(
      value(
        text,
        'crw_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(3);
    expect(
      value(
        text,
        'crw_http_request_duration_seconds_count{method="GET",route="/api/distributions/:index/tree.json",status="404"}',
      ),
    ).toBe(1);
    expect(text).not.toContain('no-such-thing-123');
    expect(text).toContain('crw_process_cpu_seconds_total');
  });

  it('reports the outbox and the distribution rounds from the database', async () => {
    await joinAndConfirm(t.app, t.services.database.db, await makeMemberKeys());
    let text = await scrape();
    expect(value(text, 'crw_mail_outbox{status="pending"}')).toBe(1); // the confirmation mail, no worker running here
    expect(value(text, 'crw_mail_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(text, 'crw_distribution_latest_published_round')).toBe(0);
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    });
    expect(published.statusCode, published.body).toBe(200);
    text = await scrape();
    expect(value(text, 'crw_distribution_rounds{status="published"}')).toBe(1);
    expect(value(text, 'crw_distribution_latest_published_round')).toBe(1);
  });
});

describe(`/metrics and the chain (${testDbKind})`, () => {
  it('reports the node calls by method, and the follower leading with no lag', async () => {
    await expect
      .poll(async () => value(await scrape(), 'crw_chain_follower_lag_blocks'), { timeout: 10_000 })
      .toBe(0);
    const text = await scrape();
    expect(value(text, 'crw_chain_follower_leading')).toBe(1);
    const calls = [...text.matchAll(/^crw_chain_node_calls_total\{method="(\w+)"\} (\d+)$/gm)];
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.reduce((sum, m) => sum + Number(m[2]), 0)).toBeLessThanOrEqual(
      t.services.chain.node.calls.total,
    ); // the follower may call again meanwhile
    expect(value(text, 'crw_chain_follower_seconds_since_success')).toBeGreaterThanOrEqual(0);
  });
});
