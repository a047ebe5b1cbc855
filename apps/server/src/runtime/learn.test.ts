import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, createDb, encodeRow } from '@svc/db';
import { createTestOrg, newUsageEvent } from '@svc/db/test';
import { type Kv, createMemoryKv } from '@svc/kv';
import { createLogger, createMetrics } from '@svc/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from './env.js';
import { createLearnSink } from './learn.js';

/** The stream releases before this one journaled an embedded store's ledger in, with `REDIS_URL`. */
const EARLIER_USAGE_STREAM = 'svc:learn:usage';

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

  const sinkOf = (dataDir: string, db: Database, kv: Kv) =>
    createLearnSink({ env: parseEnv({ SVC_DATA_DIR: dataDir, REDIS_URL: 'redis://127.0.0.1:6379/0' }), db, kv, metrics: createMetrics({ defaultMetrics: false }), logger: createLogger({ level: 'silent' }) });

  it("journals in its own data directory, never in Redis, where another deployment's instances would drain it into their store", async () => {
    const { dataDir, db } = await store();
    const org = await createTestOrg(db);
    const kv = createMemoryKv();
    const learn = await sinkOf(dataDir, db, kv);
    learn.recordUsage({ ...newUsageEvent(org.id, { requestId: 'req_own' }), keyId: null, cachedTokens: 0, cacheHit: false, stream: false, usageEstimated: false, unpriced: false, createdAt: new Date() });
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
    await (await sinkOf(dataDir, db, kv)).close();
    expect((await db.usage.listByOrg(org.id)).map((row) => row.requestId).sort()).toEqual(['req_left_in_redis', 'req_served']);
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(0);

    await kv.append(EARLIER_USAGE_STREAM, { v: encodeRow(newUsageEvent(org.id, { requestId: 'req_of_another_deployment' })) });
    await (await sinkOf(dataDir, db, kv)).close();
    expect(await kv.streamLength(EARLIER_USAGE_STREAM)).toBe(1);
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
