import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const RPM = 600;
const LINES = 700;

/**
 * Issue #30: a batch the gateway runs itself works at low priority under the organisation's
 * limits. A batch larger than the organisation's RPM takes at most half of it
 * (BACKGROUND_RESERVE), so interactive requests sent while it runs are never refused for it.
 */
describe('a gateway-run batch beside interactive traffic of the same organisation', () => {
  let gateway: Gateway;
  let client: OpenAI;
  let key: string;

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '0', SVC_SEMANTIC_CACHE: '0', SVC_BATCH_CONCURRENCY: '8' });
    const org = await gateway.runtime.db.orgs.create({ name: `batch-limits-${Date.now()}`, rpmLimit: RPM, defaultIntelligenceMode: 'proxy' });
    key = (await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const interactive = (i: number) =>
    fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/mock-speed', messages: [{ role: 'user', content: `interactive ${i}` }] }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });

  it(`leaves half of an RPM of ${RPM} to interactive requests while a ${LINES}-line batch waits for the rest`, async () => {
    const input = Array.from({ length: LINES }, (_, i) => JSON.stringify({ custom_id: `line-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'mock/mock-speed', messages: [{ role: 'user', content: `batch ${i}` }] } }));
    const file = await client.files.create({ file: await toFile(Buffer.from(`${input.join('\n')}\n`), 'input.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // The batch takes its half of the bucket (and what refills meanwhile), then waits: read its
    // count until a second adds fewer lines than it could run unhindered (the refill's 10 a second).
    const completed = async () => (await client.batches.retrieve(batch.id)).request_counts?.completed ?? 0;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    while ((await completed()) < RPM / 2 - 10) await pause();
    for (let before = -1, now = await completed(); now - before >= 30; ) {
      await pause();
      [before, now] = [now, await completed()];
    }
    const statuses = await Promise.all(Array.from({ length: RPM / 2 - 50 }, (_, i) => interactive(i)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const running = await client.batches.retrieve(batch.id);
    expect(running.request_counts!.completed).toBeLessThan(LINES);
    expect(running.request_counts!.failed).toBe(0);
    await client.batches.cancel(batch.id);
  }, 60_000);
});
