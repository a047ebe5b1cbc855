import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, createDb, encodeRow } from '@svc/db';
import { createTestOrg, newUsageEvent } from '@svc/db/test';
import { type Kv, createMemoryKv, deploymentNamespace } from '@svc/kv';
import { createLogger, createMetrics } from '@svc/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { servedBefore } from './earlier-release.js';
import { parseEnv } from './env.js';
import { createLearnSink } from './learn.js';

/** The stream releases before this one journaled the ledger in, with `REDIS_URL`: one for every deployment on the Redis database. */
const EARLIER_USAGE_STREAM = 'svc:learn:usage';
/** An organisation of another deployment on the same Redis database (not in the store under test). */
const OTHER_DEPLOYMENT_ORG = '00000000-0000-4000-8000-0000000000bb';

const usageOf = (orgId: string, requestId: string) => ({ ...newUsageEvent(orgId, { requestId }), keyId: null, cachedTokens: 0, cacheHit: false, stream: false, usageEstimated: false, unpriced: false, createdAt: new Date() });

describe('the learn sink of an embedded store with Redis', () => {
  const dirs: string[] = [];
  const dbs: Database[] = [];
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((db) => db.close()));
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function store(): Promise<{ dataDir: string; db: Database }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-learn-'));
    dirs.push(dataDir);
    const db = await createDb({ dataDir });
    dbs.push(db);
    return { dataDir, db };
  }

  const sinkOf = async (dataDir: string, db: Database, kv: Kv) =>
    createLearnSink({ env: parseEnv({ SVC_DATA_DIR: dataDir, REDIS_URL: 'redis://127.0.0.1:6379/0' }), db, kv, kvNamespace: deploymentNamespace(await db.storeIdentity.id()), servedBefore: await servedBefore(db), metrics: createMetrics({ defaultMetrics: false }), logger: createLogger({ level: 'silent' }) });

  it("journals in its own data directory, never in Redis, where another deployment's instances would drain it into their store", async () => {
    const { dataDir, db } = await store();
    const org = await createTestOrg(db);
    const kv = createMemoryKv();
    const learn = await sinkOf(dataDir, db, kv);
    learn.recordUsage(usageOf(org.id, 'req_own'));
    await learn.close();
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(0);
    expect(existsSync(join(dataDir, 'journal'))).toBe(true);
    expect((await db.usage.listByOrg(org.id)).map((row) => row.requestId)).toEqual(['req_own']);
  });

  it('writes once what an earlier release left in Redis for a store that served, then never reads Redis again', async () => {
    const { dataDir, db } = await store();
    const org = await createTestOrg(db);
    await db.usage.insertMany([newUsageEvent(org.id, { requestId: 'req_served' })]);
    const kv = createMemoryKv();
    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(org.id, { requestId: 'req_left_in_redis' })) });
    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(OTHER_DEPLOYMENT_ORG, { requestId: 'req_of_another_store' })) });
    // An earlier-release instance (of any deployment on the database) holding the shared drain lock does not stop it.
    await kv.set('svc:learn:drain-lock', 'an-earlier-instance', { ttlMs: 60_000 });
    await (await sinkOf(dataDir, db, kv)).close();
    expect((await db.usage.listByOrg(org.id)).map((row) => row.requestId).sort()).toEqual(['req_left_in_redis', 'req_served']);
    expect(await db.usage.listByOrg(OTHER_DEPLOYMENT_ORG)).toEqual([]);
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(1);

    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(org.id, { requestId: 'req_of_another_deployment' })) });
    await (await sinkOf(dataDir, db, kv)).close();
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(2);
  });

  it('leaves Redis alone for a new store', async () => {
    const { dataDir, db } = await store();
    const org = await createTestOrg(db);
    const kv = createMemoryKv();
    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(org.id, { requestId: 'req_of_another_deployment' })) });
    await (await sinkOf(dataDir, db, kv)).close();
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(1);
    expect(await db.usage.listByOrg(org.id)).toEqual([]);
  });
});

describe('the learn sinks of two deployments on one Redis database, their stores apart (PostgreSQL or in-memory PGlite)', () => {
  const dbs: Database[] = [];
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((db) => db.close()));
  });

  async function deployment(kv: Kv) {
    const db = await createDb({ dataDir: 'memory://' });
    dbs.push(db);
    const org = await createTestOrg(db);
    const env = parseEnv({ SVC_DATA_DIR: 'memory://', REDIS_URL: 'redis://127.0.0.1:6379/0' });
    const learn = await createLearnSink({ env, db, kv, kvNamespace: deploymentNamespace(await db.storeIdentity.id()), servedBefore: await servedBefore(db), metrics: createMetrics({ defaultMetrics: false }), logger: createLogger({ level: 'silent' }) });
    return { db, org, learn };
  }

  it("journal under their store's identity: neither drains the other's ledger into its store", async () => {
    const kv = createMemoryKv();
    const [a, b] = [await deployment(kv), await deployment(kv)];
    expect(await a.db.storeIdentity.id()).not.toBe(await b.db.storeIdentity.id());
    a.learn.recordUsage(usageOf(a.org.id, 'req_a'));
    b.learn.recordUsage(usageOf(b.org.id, 'req_b'));
    await b.learn.flush();
    await a.learn.flush();
    expect((await a.db.usage.listByOrg(a.org.id)).map((row) => row.requestId)).toEqual(['req_a']);
    expect((await b.db.usage.listByOrg(b.org.id)).map((row) => row.requestId)).toEqual(['req_b']);
    expect(await a.db.usage.listByOrg(b.org.id)).toEqual([]);
    await Promise.all([a.learn.close(), b.learn.close()]);
  });

  it('each drains its own rows from the journal an earlier release shared, and leaves the other deployment its own', async () => {
    const kv = createMemoryKv();
    const [a, b] = [await deployment(kv), await deployment(kv)];
    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(b.org.id, { requestId: 'req_b_left' })) });
    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(a.org.id, { requestId: 'req_a_left' })) });
    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(OTHER_DEPLOYMENT_ORG, { requestId: 'req_still_on_the_earlier_release' })) });
    // One at a time: the earlier journal's drain lock is one for every deployment on the database.
    await a.learn.close();
    await b.learn.close();
    expect((await a.db.usage.listByOrg(a.org.id)).map((row) => row.requestId)).toEqual(['req_a_left']);
    expect((await b.db.usage.listByOrg(b.org.id)).map((row) => row.requestId)).toEqual(['req_b_left']);
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(1);
  });
});
