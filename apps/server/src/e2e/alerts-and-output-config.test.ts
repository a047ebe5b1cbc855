import { randomUUID } from 'node:crypto';
import { clearOfHourEdge, createScratchDatabase } from '@svc/db/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const shared = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;

/** Issue 8: alerts and output config hold across two instances sharing PostgreSQL and Redis. */
describe.skipIf(!shared && process.env.CI !== 'true')('alerts and output config across two instances (Redis)', () => {
  let a: Gateway;
  let b: Gateway;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  const env = {
    REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    SVC_MOCK_PROVIDER: '1',
    SVC_ALERTS_INTERVAL_MS: '0',
    SVC_CACHE_TTL_SECS: '0',
    SVC_SEMANTIC_CACHE: '0',
  };

  beforeAll(async () => {
    // A database of its own: this branch's migrations must not meet another's in the shared one.
    database = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? '');
    [a, b] = await Promise.all([startGateway({ ...env, DATABASE_URL: database.url }), startGateway({ ...env, DATABASE_URL: database.url })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  const control = (g: Gateway, path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
    fetch(`${g.controlUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${init.key ?? masterKey}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const chat = async (g: Gateway, key: string, body: Record<string, unknown>) => {
    const response = await fetch(`${g.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/mock-value', ...body }),
    });
    return { status: response.status, body: (await response.json()) as { choices?: { message: { content: string } }[] } };
  };
  const tenant = async () => {
    const org = await a.runtime.db.orgs.create({ name: `alerts-e2e-${randomUUID()}` });
    return { org, key: (await a.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'observability:read', 'settings:write'] })).secret };
  };
  const history = async (g: Gateway, query: string) => ((await (await control(g, `/v1/alerts/history?limit=1000&${query}`)).json()) as { data: { id: string; subject: string; kind: string; status: string }[] }).data;

  it('an output config stored through one instance changes the next request on the other', async () => {
    const { key } = await tenant();
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] };
    const ask = async () =>
      (
        await chat(a, key, {
          messages: [{ role: 'user', content: `Forecast ${randomUUID()} [mock:reply={"city": "Oslo", "days": "2"}]` }],
          response_format: { type: 'json_schema', json_schema: { name: 'forecast', schema } },
        })
      ).body.choices![0]!.message.content;
    expect(JSON.parse(await ask())).toEqual({ city: 'Oslo', days: 2 });
    expect((await control(b, '/v1/output/config', { method: 'PUT', body: { healing: false }, key })).status).toBe(200);
    await expect.poll(ask, { timeout: 2_000, interval: 50 }).toBe('{"city": "Oslo", "days": "2"}');
  });

  it('a breaker tripped by failures on both instances raises one alert, resolved once closed', async () => {
    const breaker = `mock/e2e-${randomUUID()}`;
    await Promise.all([a, b].flatMap((g) => Array.from({ length: 5 }, () => g.runtime.breakers.record(breaker, 'failure'))));
    await Promise.all([a.runtime.alerts.flush(), b.runtime.alerts.flush()]);
    const raised = (await history(b, 'status=firing')).filter((alert) => alert.subject === breaker);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.kind).toBe('breaker_open');
    expect((await control(a, '/v1/observability/breakers/reset', { body: { key: breaker } })).status).toBe(204);
    await Promise.all([a.runtime.alerts.flush(), b.runtime.alerts.flush()]);
    expect((await history(a, `alert_id=${raised[0]!.id}`))[0]!.status).toBe('resolved');
  });

  it('an SLO breached by real traffic is one alert whichever instances evaluate, and is resolved once it recovers', async () => {
    // The failure and the recovery must share one hourly slice for the SLO to be met again.
    await clearOfHourEdge();
    const { key } = await tenant();
    expect((await chat(a, key, { messages: [{ role: 'user', content: 'fail [mock:error=400]' }] })).status).toBe(400);
    await a.runtime.learn.flush();
    const slo = (await (await control(b, '/v1/slo', { body: { name: 'e2e availability', metric: 'availability', threshold: 0.5, target: 1, window_days: 1 }, key })).json()) as {
      id: string;
      compliance: { status: string };
    };
    expect(slo.compliance.status).toBe('breached');
    await Promise.all([a.runtime.alerts.tick(), b.runtime.alerts.tick(), a.runtime.alerts.evaluateSlos(), b.runtime.alerts.evaluateSlos()]);
    const raised = (await history(a, 'status=firing')).filter((alert) => alert.subject === slo.id);
    expect(raised).toHaveLength(1);

    for (let i = 0; i < 3; i++) expect((await chat(b, key, { messages: [{ role: 'user', content: `ok ${i} ${randomUUID()}` }] })).status).toBe(200);
    await b.runtime.learn.flush();
    await Promise.all([a.runtime.alerts.evaluateSlos(), b.runtime.alerts.evaluateSlos()]);
    const after = (await history(b, '')).filter((alert) => alert.subject === slo.id);
    expect(after.map((alert) => [alert.id, alert.status])).toEqual([[raised[0]!.id, 'resolved']]);
  }, 150_000);
});
