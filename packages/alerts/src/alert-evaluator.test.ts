import { randomUUID } from 'node:crypto';
import { type Database, createDb } from '@svc/db';
import { checkPostgres, dropSchema, newDecision, randomSchemaName } from '@svc/db/test';
import { type Kv, createMemoryKv, createRedisKv } from '@svc/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluator, type AlertEvaluatorSettings } from './alert-evaluator.js';
import { breakerAlertKey, refusalAlertKey, sloAlertKey } from './alert-rules.js';

interface Backend {
  name: string;
  db(): Promise<{ db: Database; close(): Promise<void> }>;
  /** Two kvs standing for two instances: shared (Redis) or not (in-process each). */
  kvs(): { a: Kv; b: Kv; shared: boolean; close(): Promise<void> };
}

const backends: Backend[] = [
  {
    name: 'PGlite, in-process kv per instance',
    db: async () => {
      const db = await createDb();
      return { db, close: () => db.close() };
    },
    kvs: () => {
      const [a, b] = [createMemoryKv(), createMemoryKv()];
      return { a, b, shared: false, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  },
];
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (pgUrl && redisUrl && (await checkPostgres(pgUrl)) === undefined) {
  backends.push({
    name: 'PostgreSQL, one Redis for both instances',
    db: async () => {
      const schema = randomSchemaName('svc_alerts');
      const db = await createDb({ url: pgUrl, schema, poolSize: 4 });
      const close = async () => {
        await db.close();
        await dropSchema(pgUrl, schema);
      };
      return { db, close };
    },
    kvs: () => {
      const keyPrefix = `test-alerts-${randomUUID()}:`;
      const [a, b] = [createRedisKv({ url: redisUrl, keyPrefix }), createRedisKv({ url: redisUrl, keyPrefix })];
      return { a, b, shared: true, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  });
}

describe.each(backends)('AlertEvaluator on $name', (backend) => {
  let db: Database;
  let closeDb: () => Promise<void>;
  let kvs: ReturnType<Backend['kvs']>;
  beforeAll(async () => {
    ({ db, close: closeDb } = await backend.db());
    kvs = backend.kvs();
  }, 60_000);
  afterAll(async () => {
    await kvs?.close();
    await closeDb?.();
  });

  /** Two evaluators sharing the database, as two gateway instances. */
  const pair = (extra: Partial<AlertEvaluatorSettings> = {}) => {
    const errors: unknown[] = [];
    const make = (kv: Kv) => new AlertEvaluator({ store: db.alerts, slos: db.slos, kv, intervalMs: 0, onError: (error) => errors.push(error), ...extra });
    return { a: make(kvs.a), b: make(kvs.b), errors };
  };
  const alertsOf = async (dedupeKey: string) => (await db.alerts.list({ limit: 1000 })).filter((alert) => alert.dedupeKey === dedupeKey);

  it('raises one alert for an SLO breach seen by two instances, and resolves it once when the SLO recovers', async () => {
    const org = await db.orgs.create({ name: `slo-${randomUUID()}` });
    const seededAt = new Date(Date.now() - 1_000);
    const now = () => seededAt.getTime() + 1_000;
    const { slo } = await db.slos.put({ orgId: org.id, name: 'availability', metric: 'availability', threshold: 0.9, target: 0.9, windowDays: 1 });
    // This hour: 1 success and 3 failures, availability 0.25 < 0.9: the only hour is bad.
    await db.decisions.insertMany([newDecision(org.id, { outcome: 'ok', createdAt: seededAt }), ...[1, 2, 3].map(() => newDecision(org.id, { outcome: 'error', createdAt: seededAt }))]);
    const { a, b, errors } = pair({ now });
    await Promise.all([a.evaluateSlos(), b.evaluateSlos()]);
    await Promise.all([a.evaluateSlos(), b.evaluateSlos()]);
    const raised = await alertsOf(sloAlertKey(slo.id));
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ orgId: org.id, kind: 'slo_breach', severity: 'critical', status: 'firing', subject: slo.id, details: { compliance: 0, slices: 1, good_slices: 0, value: 0.25 } });
    expect(raised[0]!.message).toContain("SLO 'availability' breached");

    // 30 more successes in the same hour: 31 of 34, availability 0.91, the hour is good again.
    await db.decisions.insertMany(Array.from({ length: 30 }, () => newDecision(org.id, { outcome: 'ok', createdAt: seededAt })));
    await Promise.all([a.evaluateSlos(), b.evaluateSlos()]);
    const resolved = await alertsOf(sloAlertKey(slo.id));
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ id: raised[0]!.id, status: 'resolved', details: { resolution: 'met', compliance: 1 } });
    expect(resolved[0]!.resolvedAt).toBeInstanceOf(Date);
    expect(errors).toEqual([]);
  });

  it('resolves the alert of an SLO deleted while breached', async () => {
    const org = await db.orgs.create({ name: `slo-deleted-${randomUUID()}` });
    const { slo } = await db.slos.put({ orgId: org.id, name: 'fast', metric: 'latency_p95_ms', threshold: 10, target: 1, windowDays: 1 });
    await db.decisions.insertMany([newDecision(org.id, { outcome: 'ok', latencyMs: 900, createdAt: new Date(Date.now() - 1_000) })]);
    const { a } = pair();
    await a.evaluateSlos();
    expect((await alertsOf(sloAlertKey(slo.id)))[0]?.status).toBe('firing');
    await db.slos.delete(org.id, slo.id);
    await a.evaluateSlos();
    expect((await alertsOf(sloAlertKey(slo.id)))[0]).toMatchObject({ status: 'resolved', details: { resolution: 'slo_deleted' } });
  });

  it('raises one platform-wide alert when a breaker opens (on any number of instances) and resolves it when it closes', async () => {
    const breaker = `mock/${randomUUID()}`;
    const { a, b } = pair();
    a.emit({ type: 'breaker_opened', key: breaker, reason: 'consecutive_failures', at: Date.now() });
    b.emit({ type: 'breaker_opened', key: breaker, reason: 'error_ratio', at: Date.now() });
    await Promise.all([a.flush(), b.flush()]);
    const opened = await alertsOf(breakerAlertKey(breaker));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ orgId: null, kind: 'breaker_open', severity: 'warning', status: 'firing', subject: breaker });
    b.emit({ type: 'breaker_closed', key: breaker, reason: 'probe_succeeded', at: Date.now() });
    await b.flush();
    expect((await alertsOf(breakerAlertKey(breaker)))[0]).toMatchObject({ status: 'resolved', details: { resolution: 'probe_succeeded' } });
  });

  it('resolves a breaker alert whose breaker closed without a transition here', async () => {
    const breaker = `mock/${randomUUID()}`;
    const states = new Map<string, 'open' | 'closed'>([[breaker, 'open']]);
    const { a } = pair({ breakerState: async (key) => states.get(key) ?? 'closed' });
    a.emit({ type: 'breaker_opened', key: breaker, reason: 'consecutive_failures', at: Date.now() });
    await a.flush();
    await a.reconcile();
    expect((await alertsOf(breakerAlertKey(breaker)))[0]?.status).toBe('firing');
    states.set(breaker, 'closed');
    await a.reconcile();
    expect((await alertsOf(breakerAlertKey(breaker)))[0]).toMatchObject({ status: 'resolved', details: { resolution: 'closed' } });
  });

  it('raises a refusal spike once the organisation’s refusals in a minute reach the threshold, and resolves it when calm', async () => {
    const org = await db.orgs.create({ name: `spike-${randomUUID()}` });
    let clock = Date.now();
    const { a, b } = pair({ refusalsPerMinute: 10, now: () => clock });
    for (let i = 0; i < 6; i++) a.emit({ type: 'limit_refused', orgId: org.id, kind: 'budget' });
    await a.flush();
    expect(await alertsOf(refusalAlertKey(org.id, 'budget'))).toEqual([]);
    for (let i = 0; i < 4; i++) (kvs.shared ? b : a).emit({ type: 'limit_refused', orgId: org.id, kind: 'budget' });
    await Promise.all([a.flush(), b.flush()]);
    const raised = await alertsOf(refusalAlertKey(org.id, 'budget'));
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ orgId: org.id, kind: 'limit_spike', severity: 'critical', subject: 'budget', details: { refusals: 10, threshold: 10 } });
    expect(await alertsOf(refusalAlertKey(org.id, 'rate'))).toEqual([]);
    await a.reconcile();
    expect((await alertsOf(refusalAlertKey(org.id, 'budget')))[0]?.status).toBe('firing');
    clock += 2 * 60_000;
    await a.reconcile();
    expect((await alertsOf(refusalAlertKey(org.id, 'budget')))[0]).toMatchObject({ status: 'resolved', details: { resolution: 'calm' } });
  });

  it('evaluates on one instance per interval when the kv is shared', async () => {
    const calls: string[] = [];
    const counting = (name: string) => ({
      list: async () => {
        calls.push(name);
        return [];
      },
      windowStats: db.slos.windowStats,
    });
    const make = (kv: Kv, name: string) => new AlertEvaluator({ store: db.alerts, slos: counting(name), kv, intervalMs: 60_000 });
    await Promise.all([make(kvs.a, 'a').tick(), make(kvs.b, 'b').tick()]);
    expect(calls).toHaveLength(kvs.shared ? 1 : 2);
  });
});

describe('AlertEvaluator failures', () => {
  it('never throws from emit, and hands store and kv failures to onError', async () => {
    const errors: string[] = [];
    const failing = () => Promise.reject(new Error('down'));
    const evaluator = new AlertEvaluator({
      store: { raise: failing, resolve: failing, firing: failing },
      slos: { list: failing, windowStats: failing },
      kv: { get: failing, increment: failing, setIfAbsent: async () => true },
      onError: (_error, what) => errors.push(what),
    });
    expect(() => evaluator.emit({ type: 'breaker_opened', key: 'm/x', reason: 'error_ratio', at: 0 })).not.toThrow();
    evaluator.emit({ type: 'limit_refused', orgId: 'org', kind: 'rate' });
    await evaluator.tick();
    expect(errors.sort()).toEqual(['breaker m/x alert', 'loading SLOs', 'loading firing alerts', 'refusals of org']);
  });
});
