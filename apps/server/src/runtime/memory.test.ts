import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endUserSubject } from '@svc/memory';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.js';
import { createRuntime, type Runtime } from './runtime.js';

const base = { SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' };
const lives = 'I live in Lisbon and I work at Acme Robotics.';
const question = 'I live in which city?';

async function orgOf(runtime: Runtime, name: string) {
  const org = await runtime.db.orgs.ensure(name);
  return { orgId: org.id, subject: endUserSubject(org.id, 'ada') };
}

describe('memory in the runtime', () => {
  it('survives a restart on the embedded default: the index is rebuilt from the table', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-memory-'));
    const first = await createRuntime(parseEnv({ ...base, SVC_DATA_DIR: dir }));
    const scope = await orgOf(first, 'memory-restart');
    first.memory.remember(scope, lives);
    await first.close();

    const second = await createRuntime(parseEnv({ ...base, SVC_DATA_DIR: dir }));
    try {
      const found = await second.memory.recall(scope, question);
      expect(found.map((m) => m.text)).toContain('I live in Lisbon');
    } finally {
      await second.close();
    }
  });

  it('recalls through history after a restart: a correction made before it still answers the old wording', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-memory-'));
    const first = await createRuntime(parseEnv({ ...base, SVC_DATA_DIR: dir }));
    const scope = await orgOf(first, 'memory-history-restart');
    const asked = 'Is Lisbon my home town?';
    for (const said of ['I live in Lisbon.', 'I moved to Berlin last month.', 'I moved to Paris this week.']) {
      first.memory.remember(scope, said);
      await first.memory.idle();
    }
    const before = (await first.memory.recall(scope, asked)).map((m) => m.text);
    await first.close();

    const second = await createRuntime(parseEnv({ ...base, SVC_DATA_DIR: dir }));
    try {
      expect(before).toEqual(['I moved to Paris this week.']);
      expect((await second.memory.recall(scope, asked)).map((m) => m.text)).toEqual(before);
    } finally {
      await second.close();
    }
  });

  const shared = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL;
  it.skipIf(!shared)('forgets an end user on every instance at once (PostgreSQL, Redis, in-process indexes)', async () => {
    const env = parseEnv({ ...base, DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL });
    const a = await createRuntime(env);
    const scope = await orgOf(a, `memory-forget-${Math.random()}`);
    a.memory.remember(scope, lives);
    await a.memory.idle();
    // B starts after A stored: its index is rebuilt from the shared table.
    const b = await createRuntime(env);
    try {
      expect((await b.memory.recall(scope, question)).map((m) => m.text)).toContain('I live in Lisbon');
      expect((await a.memory.forgetSubject(scope.orgId, scope.subject)).length).toBe(2);
      await expect.poll(async () => (await b.memory.recall(scope, question)).length, { timeout: 5_000 }).toBe(0);
      expect(await a.memory.recall(scope, question)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it.skipIf(!shared)('a correction on one instance retires the old fact on every instance; after a restart only the current one is loaded', async () => {
    const env = parseEnv({ ...base, DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL });
    const a = await createRuntime(env);
    const scope = await orgOf(a, `memory-correct-${Math.random()}`);
    a.memory.remember(scope, lives);
    await a.memory.idle();
    const b = await createRuntime(env);
    try {
      expect((await b.memory.recall(scope, question)).map((m) => m.text)).toContain('I live in Lisbon');
      a.memory.remember(scope, 'I moved to Berlin last month.');
      await a.memory.idle();
      await expect.poll(async () => (await b.memory.recall(scope, question)).map((m) => m.text), { timeout: 5_000 }).not.toContain('I live in Lisbon');
      expect((await a.memory.recall(scope, question, { minSimilarity: -1 })).map((m) => m.text)).toContain('I moved to Berlin last month.');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const c = await createRuntime(env);
    try {
      const texts = (await c.memory.recall(scope, question, { minSimilarity: -1 })).map((m) => m.text);
      expect(texts).toContain('I moved to Berlin last month.');
      expect(texts).not.toContain('I live in Lisbon');
    } finally {
      await c.close();
    }
  });

  it('stops the start with one line naming SVC_SENTENCE_ENCODER when the value is unknown', () => {
    expect(() => parseEnv({ ...base, SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'bert' })).toThrow(ConfigError);
  });
});
