// A round published as the operator publishes it: through the operator API of a benchmark's app.
import type { TestApp } from '@crw/server/testing/app';

export async function publishThroughOperatorApi(t: TestApp): Promise<number> {
  const published = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  if (published.statusCode !== 200) throw new Error(`publish: ${published.body}`);
  return (published.json() as { index: number }).index;
}
