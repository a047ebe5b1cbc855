import { randomUUID } from 'node:crypto';
import type { Organization } from '@svc/core';
import type { NewRoutingDecision } from '@svc/db';
import { ConfigError, parseEnv } from '../../runtime/env.js';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-diversity-test-master-Ye1U5RjHhqe04nEGB1IGCceY';
const day = 86_400_000;
let runtime: Runtime;
let control: ReturnType<typeof createControlPlaneApp>;
/** 2 models 50/50 in the window, plus one old decision for a third model. */
let even: Organization;
/** 5 decisions, all one model: collapsed. */
let collapsed: Organization;
/** 3 decisions, all one model: below the minimum decision count. */
let quiet: Organization;
/** 1001 decisions 200 days ago. */
let bulk: Organization;

interface Scope {
  scope: string;
  decisions: number;
  models: { model: string; count: number; share: number }[];
  entropy_bits: number;
  normalized_entropy: number;
  top_share: number;
  alarms: { reason: string; value: number; threshold: number }[];
}
interface Report {
  window_days: number;
  thresholds: { entropy_floor_bits: number; arm_share_cap: number; min_decisions: number };
  scopes: Scope[];
  truncated: boolean;
}

beforeAll(async () => {
  runtime = await createRuntime(
    parseEnv({
      SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed',
      SVC_MASTER_KEY: master,
      SVC_MOCK_PROVIDER: '1',
      LOG_LEVEL: 'silent',
      SVC_DIVERSITY_MIN_DECISIONS: '4',
      SVC_DIVERSITY_ENTROPY_FLOOR_BITS: '0.5',
      SVC_DIVERSITY_ARM_SHARE_CAP: '0.7',
    }),
  );
  control = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  const ensure = (name: string) => runtime.db.orgs.ensure(`${name}-${randomUUID()}`);
  [even, collapsed, quiet, bulk] = await Promise.all([ensure('even'), ensure('collapsed'), ensure('quiet'), ensure('bulk')]);
  let n = 0;
  const decision = (org: Organization, model: string, daysAgo = 0): NewRoutingDecision => ({
    requestId: `req_div_${n++}`,
    orgId: org.id,
    model,
    provider: model.split('/')[0]!,
    source: 'Router',
    outcome: 'ok',
    createdAt: new Date(Date.now() - daysAgo * day - 60_000),
  });
  await runtime.db.decisions.insertMany([
    decision(even, 'openai/gpt-4o-mini'),
    decision(even, 'openai/gpt-4o-mini', 1),
    decision(even, 'anthropic/claude-3-5-haiku', 2),
    decision(even, 'anthropic/claude-3-5-haiku', 3),
    decision(even, 'groq/llama-3.1-8b', 30),
    ...Array.from({ length: 5 }, (_, i) => decision(collapsed, 'openai/gpt-4o-mini', i)),
    ...Array.from({ length: 3 }, (_, i) => decision(quiet, 'openai/gpt-4o-mini', i)),
    ...Array.from({ length: 1001 }, (_, i) => decision(bulk, i % 2 === 0 ? 'openai/gpt-4o-mini' : 'anthropic/claude-3-5-haiku', 200 + i / 1000)),
  ]);
});
afterAll(async () => {
  await runtime?.close();
});

const get = (path: string, key: string | null = master) => control.request(path, key === null ? {} : { headers: { authorization: `Bearer ${key}` } });
const report = async (query = '') => {
  const response = await get(`/v1/admin/routing/diversity${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Report;
};
const scope = (r: Report, name: string) => {
  const found = r.scopes.find((s) => s.scope === name);
  expect(found, name).toBeDefined();
  return found!;
};
const expect400 = async (query: string, param: string) => {
  const response = await get(`/v1/admin/routing/diversity${query}`);
  expect(response.status, query).toBe(400);
  expect(await response.json(), query).toMatchObject({ error: { type: 'invalid_request_error', param } });
};

describe('routing diversity: authorisation', () => {
  it('needs a key (401) with the admin role (403)', async () => {
    const observer = await runtime.authenticator.issue({ orgId: even.id, scopes: ['observability:read', 'inference:chat'] });
    expect((await get('/v1/admin/routing/diversity', null)).status).toBe(401);
    expect((await get('/v1/admin/routing/diversity', observer.secret)).status).toBe(403);
  });
});

describe('GET /v1/admin/routing/diversity', () => {
  it('reports the window and the deployment thresholds', async () => {
    const r = await report();
    expect(r.window_days).toBe(7);
    expect(r.thresholds).toEqual({ entropy_floor_bits: 0.5, arm_share_cap: 0.7, min_decisions: 4 });
    expect(r.truncated).toBe(false);
  });

  it('computes 1 bit for two models at 50/50, without alarms', async () => {
    expect(scope(await report(), `tenant:${even.id}`)).toEqual({
      scope: `tenant:${even.id}`,
      decisions: 4,
      models: [
        { model: 'anthropic/claude-3-5-haiku', count: 2, share: 0.5 },
        { model: 'openai/gpt-4o-mini', count: 2, share: 0.5 },
      ],
      entropy_bits: 1,
      normalized_entropy: 1,
      top_share: 0.5,
      alarms: [],
    });
  });

  it('raises both arm-collapse alarms for one model at the minimum decision count, none below it', async () => {
    const r = await report();
    expect(scope(r, `tenant:${collapsed.id}`)).toMatchObject({
      decisions: 5,
      models: [{ model: 'openai/gpt-4o-mini', count: 5, share: 1 }],
      entropy_bits: 0,
      normalized_entropy: 0,
      top_share: 1,
      alarms: [
        { reason: 'entropy_below_floor', value: 0, threshold: 0.5 },
        { reason: 'arm_share_above_cap', value: 1, threshold: 0.7 },
      ],
    });
    expect(scope(r, `tenant:${quiet.id}`)).toMatchObject({ decisions: 3, entropy_bits: 0, top_share: 1, alarms: [] });
  });

  it('puts the fleet first, then each tenant by decision count', async () => {
    const r = await report();
    expect(r.scopes.map((s) => s.scope)).toEqual(['fleet', `tenant:${collapsed.id}`, `tenant:${even.id}`, `tenant:${quiet.id}`]);
    const fleet = scope(r, 'fleet');
    const [top, second] = [10 / 12, 2 / 12];
    const entropy = -(top * Math.log2(top) + second * Math.log2(second));
    expect(fleet).toMatchObject({
      decisions: 12,
      models: [
        { model: 'openai/gpt-4o-mini', count: 10, share: top },
        { model: 'anthropic/claude-3-5-haiku', count: 2, share: second },
      ],
      top_share: top,
      alarms: [{ reason: 'arm_share_above_cap', value: top, threshold: 0.7 }],
    });
    expect(fleet.entropy_bits).toBeCloseTo(entropy, 12);
    expect(fleet.normalized_entropy).toBeCloseTo(entropy, 12);
    expect(fleet.entropy_bits).toBeGreaterThan(0.5);
  });

  it('narrows to one tenant with tenant_id, and to one model with model', async () => {
    const r = await report(`?tenant_id=${even.id}`);
    expect(r.scopes.map((s) => s.scope)).toEqual([`tenant:${even.id}`]);
    expect(r.scopes[0]).toMatchObject({ decisions: 4, entropy_bits: 1 });
    expect((await report(`?tenant_id=${randomUUID()}`)).scopes).toEqual([
      { scope: expect.stringMatching(/^tenant:/), decisions: 0, models: [], entropy_bits: 0, normalized_entropy: 0, top_share: 0, alarms: [] },
    ]);
    const haiku = await report('?model=anthropic/claude-3-5-haiku');
    expect(haiku.scopes.map((s) => [s.scope, s.decisions])).toEqual([
      ['fleet', 2],
      [`tenant:${even.id}`, 2],
    ]);
  });

  it('leaves decisions older than the window out', async () => {
    const week = scope(await report(`?tenant_id=${even.id}`), `tenant:${even.id}`);
    expect(week.models.map((m) => m.model)).not.toContain('groq/llama-3.1-8b');
    const r = await report(`?days=60&tenant_id=${even.id}`);
    expect(r.window_days).toBe(60);
    expect(r.scopes[0]).toMatchObject({ decisions: 5, models: [{ count: 2 }, { count: 2 }, { model: 'groq/llama-3.1-8b', count: 1, share: 0.2 }] });
    expect(r.scopes[0]!.entropy_bits).toBeCloseTo(-(2 * 0.4 * Math.log2(0.4) + 0.2 * Math.log2(0.2)), 12);
    expect(r.scopes[0]!.normalized_entropy).toBeCloseTo(r.scopes[0]!.entropy_bits / Math.log2(3), 12);
    const today = await report('?days=1');
    expect(today.scopes.map((s) => s.decisions)).toEqual([3, 1, 1, 1]);
  });

  it('counts every decision of the window, not a capped sample', async () => {
    const r = await report(`?days=365&tenant_id=${bulk.id}`);
    expect(r.truncated).toBe(false);
    expect(r.scopes[0]).toMatchObject({ decisions: 1001, models: [{ model: 'openai/gpt-4o-mini', count: 501 }, { model: 'anthropic/claude-3-5-haiku', count: 500 }] });
  });

  it('applies the report query rules: 400 naming the parameter; limit is checked but ignored', async () => {
    await expect400(`?tenant_id=${'a'.repeat(65)}`, 'tenant_id');
    await expect400(`?model=${'m'.repeat(51)}`, 'model');
    for (const days of ['abc', '1.5', '7d']) await expect400(`?days=${days}`, 'days');
    for (const limit of ['0', '1001', 'ten']) await expect400(`?limit=${limit}`, 'limit');
    expect(scope(await report('?limit=1'), 'fleet').decisions).toBe(12);
    expect((await report('?days=0')).window_days).toBe(1);
    expect((await report('?days=100000')).window_days).toBe(365);
  });
});

describe('diversity thresholds from the environment', () => {
  it('defaults to a 1-bit floor, a 0.8 share cap and 50 decisions', () => {
    expect(parseEnv({})).toMatchObject({ SVC_DIVERSITY_ENTROPY_FLOOR_BITS: 1, SVC_DIVERSITY_ARM_SHARE_CAP: 0.8, SVC_DIVERSITY_MIN_DECISIONS: 50 });
  });

  it('names the variable of a bad value', () => {
    const cases: [Record<string, string>, string][] = [
      [{ SVC_DIVERSITY_ARM_SHARE_CAP: '1.5' }, 'SVC_DIVERSITY_ARM_SHARE_CAP'],
      [{ SVC_DIVERSITY_ARM_SHARE_CAP: 'most' }, 'SVC_DIVERSITY_ARM_SHARE_CAP'],
      [{ SVC_DIVERSITY_ENTROPY_FLOOR_BITS: '-1' }, 'SVC_DIVERSITY_ENTROPY_FLOOR_BITS'],
      [{ SVC_DIVERSITY_ENTROPY_FLOOR_BITS: 'Infinity' }, 'SVC_DIVERSITY_ENTROPY_FLOOR_BITS'],
      [{ SVC_DIVERSITY_MIN_DECISIONS: '2.5' }, 'SVC_DIVERSITY_MIN_DECISIONS'],
    ];
    for (const [env, variable] of cases) {
      expect(() => parseEnv(env), variable).toThrow(ConfigError);
      expect(() => parseEnv(env), variable).toThrow(expect.objectContaining({ variable }));
    }
  });
});
