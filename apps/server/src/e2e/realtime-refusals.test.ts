import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@svc/db';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';
import { openSocket, refusal, sessionRows } from './realtime-kit.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const FEE = 0.01;

/** Refused upgrades (auth, scope, budget, upstream) and sessions the upstream or a shutdown ends. */
describe('realtime voice: refusals and broken sessions (mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let url: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 2 });
    gateway = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1`, SVC_VOICE_PLATFORM_FEE_PER_MINUTE: String(FEE) });
    url = `${gateway.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime`;
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  async function keyOf(org: { monthlyBudgetUsd?: number; rpmLimit?: number; freeModelsOnly?: boolean; defaultIntelligenceMode?: 'proxy' }, scopes: ('inference:audio' | 'inference:chat')[]) {
    const created = await gateway.runtime.db.orgs.create({ name: `rt-${Math.random()}`, ...org });
    return (await gateway.runtime.authenticator.issue({ orgId: created.id, scopes })).secret;
  }

  it('refuses the upgrade itself with the spec error (body, x-error-id), never reaching the upstream', async () => {
    upstream.resetStats();
    const revoked = await gateway.runtime.authenticator.issue({ orgId: (await gateway.runtime.db.orgs.ensure('rt-revoked')).id, scopes: ['inference:audio'] });
    await gateway.runtime.authenticator.revoke(revoked.record.id);
    const cases = [
      [{}, 401, 'authentication_error', 'invalid_api_key'],
      [{ headers: { authorization: 'Bearer sk-svc-nope' } }, 401, 'authentication_error', 'invalid_api_key'],
      [{ headers: { authorization: `Bearer ${revoked.secret}` } }, 401, 'authentication_error', 'revoked_api_key'],
      [{ protocols: ['realtime', `openai-insecure-api-key.${await keyOf({}, ['inference:chat'])}`] }, 403, 'authorization_error', 'insufficient_scopes'],
      [{ headers: { authorization: `Bearer ${await keyOf({ rpmLimit: 0 }, ['inference:audio'])}` } }, 429, 'rate_limit_error', 'rate_limit_exceeded'],
      [{ headers: { authorization: `Bearer ${await keyOf({ monthlyBudgetUsd: 0 }, ['inference:audio'])}` } }, 402, 'billing_error', undefined],
      // A realtime model is neither free nor open-weight: an organisation restricted to those may not open a session.
      [{ headers: { authorization: `Bearer ${await keyOf({ freeModelsOnly: true }, ['inference:audio'])}` } }, 403, 'authorization_error', 'forbidden'],
    ] as const;
    for (const [options, status, type, code] of cases) {
      const refused = await refusal(url, options);
      expect(refused.status, JSON.stringify(options)).toBe(status);
      expect(refused.body.error.type).toBe(type);
      if (code) expect(refused.body.error.code).toBe(code);
      expect(refused.headers['x-error-id']).toMatch(/.+/);
      // Every voice answer says its mode, refusals included (no org default known before authentication: full).
      expect(refused.headers['x-svc-intelligence-mode']).toBe('full');
    }
    const proxied = await refusal(url, { headers: { authorization: `Bearer ${await keyOf({ monthlyBudgetUsd: 0, defaultIntelligenceMode: 'proxy' }, ['inference:audio'])}` } });
    expect(proxied.status).toBe(402);
    expect(proxied.headers['x-svc-intelligence-mode']).toBe('cache');
    const notRealtime = await refusal(url.replace('gpt-realtime', 'gpt-4o-mini'), { headers: { authorization: `Bearer ${masterKey}` } });
    expect(notRealtime).toMatchObject({ status: 404, body: { error: { param: 'model', code: 'model_not_found' } } });
    const badMode = await refusal(url, { headers: { authorization: `Bearer ${masterKey}`, 'x-intelligence-mode': 'turbo' } });
    expect(badMode).toMatchObject({ status: 400, body: { error: { param: 'X-Intelligence-Mode' } } });
    expect(badMode.headers['x-svc-intelligence-mode']).toBeUndefined();
    expect(upstream.stats().total).toBe(0);
  });

  it('answers a GET without an upgrade with 426', async () => {
    const response = await fetch(`${gateway.inferenceUrl}/v1/voice/realtime`, { headers: { authorization: `Bearer ${masterKey}` } });
    expect(response.status).toBe(426);
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('websocket_upgrade_required');
  });

  it('passes an upstream refusal on as the upgrade answer (429 with retry-after, 5xx as 502) and bills nothing', async () => {
    upstream.configure({ fault: '429', retryAfterSeconds: 3 });
    try {
      const limited = await refusal(url, { headers: { authorization: `Bearer ${masterKey}` } });
      expect(limited).toMatchObject({ status: 429, body: { error: { type: 'rate_limit_error' } } });
      expect(limited.headers['retry-after']).toBe('3');
      upstream.configure({ fault: '500' });
      const broken = await refusal(url, { headers: { authorization: `Bearer ${masterKey}` } });
      expect(broken).toMatchObject({ status: 502, body: { error: { type: 'upstream_error', code: 'provider_error' } } });
      const orgId = (await gateway.runtime.db.orgs.getByName('default'))!.id;
      expect(await sessionRows(gateway.runtime, { 'x-svc-org-id': orgId, 'x-svc-request-id': broken.headers['x-svc-request-id'] })).toHaveLength(0);
    } finally {
      upstream.configure({ fault: undefined });
    }
  });

  it('closes the client with 1014 when the upstream drops mid-session, and bills the minute used', async () => {
    upstream.configure({ fault: 'drop-mid-stream' });
    try {
      const s = openSocket(url, { headers: { authorization: `Bearer ${masterKey}` } });
      await s.opened;
      await s.waitFor('session.created');
      s.send({ type: 'response.create' });
      const { code, reason } = await s.closed;
      expect(code).toBe(1014);
      expect(reason).toBe('upstream connection lost');
      expect(s.events.some((e) => e.type === 'response.output_audio.delta')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const rows = await sessionRows(gateway.runtime, s.headers());
      expect(rows).toMatchObject([{ status: 502, costUsd: 0 }, { status: 101, costUsd: FEE }]);
    } finally {
      upstream.configure({ fault: undefined });
    }
  });

  it('ends a session at the request deadline with 1008, billed', async () => {
    const short = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1`, SVC_REQUEST_TIMEOUT_MS: '300', SVC_VOICE_PLATFORM_FEE_PER_MINUTE: String(FEE) });
    try {
      const s = openSocket(`${short.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${masterKey}` } });
      await s.opened;
      expect(await s.closed).toEqual({ code: 1008, reason: 'session time limit reached' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await sessionRows(short.runtime, s.headers())).toMatchObject([{ status: 101, costUsd: 0 }, { status: 101, costUsd: FEE }]);
    } finally {
      await short.stop();
    }
  });

  it('on shutdown lets a session run for the grace period, then closes it with 1001 and keeps its ledger rows', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-rt-'));
    try {
      const draining = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1`, SVC_DATA_DIR: dataDir, SVC_SHUTDOWN_GRACE_MS: '400', SVC_VOICE_PLATFORM_FEE_PER_MINUTE: String(FEE) });
      const s = openSocket(`${draining.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${masterKey}` } });
      await s.opened;
      await s.waitFor('session.created');
      const started = Date.now();
      const stopped = draining.stop();
      const { code } = await s.closed;
      expect(code).toBe(1001);
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
      await stopped;
      const db = await createDb({ dataDir });
      try {
        // Nothing is left to flush: the runtime flushed the ledger when it closed.
        expect(await sessionRows({ db }, s.headers())).toMatchObject([{ status: 101, costUsd: 0 }, { status: 101, costUsd: FEE }]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
