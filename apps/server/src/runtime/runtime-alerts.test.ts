import type { Caller } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from './env.js';
import { type Runtime, createRuntime } from './runtime.js';

/** The runtime wires breakers and limits to the alert evaluator. */
describe('alerts of a runtime', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await createRuntime(
      parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_ALERTS_INTERVAL_MS: '0', SVC_ALERT_REFUSALS_PER_MINUTE: '2', SVC_BREAKER_CONSECUTIVE_FAILURES: '2', SVC_RETRY_MAX: '0' }),
    );
  });
  afterAll(async () => {
    await runtime?.close();
  });

  const ask = (caller: Caller, content: string) =>
    runtime.gateway
      .chat(
        { model: 'mock/mock-value', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false },
        { caller, requestId: `req_${Math.random()}`, startedAt: performance.now(), signal: new AbortController().signal, mode: 'full' },
      )
      .then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
  const callerOf = async (name: string, rpmLimit: number | null = null): Promise<Caller> => {
    const org = await runtime.db.orgs.create({ name: `${name}-${Math.random()}`, rpmLimit });
    return { keyId: 'key_alerts', keyPrefix: 'sk-svc-al', org, scopes: new Set(['inference:chat']) };
  };

  it('raises a platform-wide alert when the gateway’s failures open a breaker, and resolves it on reset', async () => {
    const caller = await callerOf('breaker');
    for (let i = 0; i < 4 && (await ask(caller, 'fail [mock:error=503]')) !== 'circuit_breaker_open'; i++);
    expect((await runtime.breakers.status('mock/mock-value')).state).toBe('open');
    await runtime.alerts.flush();
    const firing = (await runtime.db.alerts.list({ status: 'firing' })).filter((alert) => alert.subject === 'mock/mock-value');
    expect(firing).toHaveLength(1);
    expect(firing[0]).toMatchObject({ kind: 'breaker_open', orgId: null, severity: 'warning', details: { reason: 'consecutive_failures' } });
    await runtime.breakers.reset('mock/mock-value');
    await runtime.alerts.flush();
    expect((await runtime.db.alerts.list({ id: firing[0]!.id }))[0]).toMatchObject({ status: 'resolved', details: { resolution: 'reset' } });
  });

  it('raises a spike alert when an organisation’s requests are refused by its rate limit', async () => {
    const caller = await callerOf('refused', 1);
    expect([await ask(caller, 'one'), await ask(caller, 'two'), await ask(caller, 'three')]).toEqual(['ok', 'rate_limit_exceeded', 'rate_limit_exceeded']);
    await runtime.alerts.flush();
    expect(await runtime.db.alerts.list({ orgId: caller.org.id, status: 'firing' })).toEqual([
      expect.objectContaining({ kind: 'limit_spike', subject: 'rate', severity: 'warning', details: expect.objectContaining({ refusals: 2 }) }),
    ]);
  });
});
