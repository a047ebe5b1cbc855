import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.js';
import { createRuntime } from './runtime.js';

describe('createRuntime', () => {
  it('starts with a first breaker cooldown longer than the default ceiling', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_BREAKER_COOLDOWN_MS: '600000' }));
    try {
      expect((await runtime.readiness()).ready).toBe(true);
    } finally {
      await runtime.close();
    }
  });
});

describe('feature flags', () => {
  it('take their defaults from SVC_CONFIG flags and SVC_ROUTER_EXPLORE; say which features this deployment lacks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-flags-'));
    const config = join(dir, 'svc.json');
    await writeFile(config, JSON.stringify({ flags: { memory: false, speculation: false } }));
    const runtime = await createRuntime(
      parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_CONFIG: config, SVC_ROUTER_EXPLORE: '0', SVC_SEMANTIC_CACHE: '0' }),
    );
    try {
      expect(runtime.switches.current.flags).toMatchObject({ memory: false, speculation: false, router_exploration: false, exact_cache: true, semantic_cache: true });
      expect(runtime.switches.flags().find((flag) => flag.key === 'semantic_cache')).toMatchObject({ enabled: true, available: false });
      expect(await runtime.metrics.metrics()).toContain('svc_feature_flag_enabled{flag="memory"} 0');
    } finally {
      await runtime.close();
    }
  });

  it('refuses an unknown flag in SVC_CONFIG at start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-flags-'));
    const config = join(dir, 'svc.json');
    await writeFile(config, JSON.stringify({ flags: { warp_drive: true } }));
    await expect(createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', LOG_LEVEL: 'silent', SVC_CONFIG: config }))).rejects.toThrow(ConfigError);
    await expect(createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', LOG_LEVEL: 'silent', SVC_CONFIG: config }))).rejects.toThrow(/flags are exact_cache/);
  });
});

describe('readiness with the vector store down', () => {
  it('is degraded (200-class, ready) and the gateway keeps answering, semantic lookups missing', async () => {
    // The same question twice, worded differently enough to miss the exact cache: the in-process
    // index answers the second from the semantic cache; with Qdrant down it is a miss, and served.
    const ask = async (runtime: Awaited<ReturnType<typeof createRuntime>>, content: string) => {
      const org = await runtime.db.orgs.ensure('vector-down');
      const caller = { keyId: 'k', keyPrefix: 'sk', org, scopes: new Set(['inference:chat'] as const) };
      const response = await runtime.gateway.chat(
        { model: 'mock/mock-value', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false },
        { caller, requestId: `req_${Math.random()}`, startedAt: performance.now(), signal: new AbortController().signal, mode: 'full' },
      );
      if (response.kind !== 'json') throw new Error('expected a JSON answer');
      return response.headers['x-svc-cache-type'];
    };
    const up = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
    const down = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', QDRANT_URL: 'http://127.0.0.1:9' }));
    try {
      expect(await up.readiness()).toMatchObject({ ready: true, status: 'ready' });
      expect(await ask(up, 'What is a vector database?')).toBeUndefined();
      // The answer is stored off the response path: each try words it anew, so none is an exact hit.
      const wordings = ['what is a vector database', 'What is a vector database', 'what is a vector database?', 'WHAT IS A VECTOR DATABASE?'];
      let tries = 0;
      await expect.poll(() => ask(up, wordings[tries++ % wordings.length]!), { interval: 20 }).toBe('semantic');

      const readiness = await down.readiness();
      expect(readiness).toMatchObject({ ready: true, status: 'degraded', dependencies: { vector_db: { status: 'down', backend: 'qdrant', required: false } } });
      expect(await ask(down, 'What is a vector database?')).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await ask(down, 'what is a vector database')).toBeUndefined();
      expect(down.cache.stats().by_type.semantic).toMatchObject({ enabled: true, hits: 0 });
    } finally {
      await Promise.all([up.close(), down.close()]);
    }
  });

  it('reports the in-process index as up by default, and disabled when the semantic cache is off', async () => {
    const on = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
    const off = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_SEMANTIC_CACHE: '0' }));
    try {
      expect((await on.readiness()).dependencies.vector_db).toMatchObject({ status: 'up', backend: 'in_process' });
      expect((await off.readiness()).dependencies.vector_db).toMatchObject({ status: 'up', backend: 'disabled' });
      expect(off.cache.stats().by_type.semantic.enabled).toBe(false);
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });

  it('turns both answer caches off when cached answers may not be kept (SVC_CACHE_TTL_SECS=0)', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_CACHE_TTL_SECS: '0' }));
    try {
      expect(runtime.cache.exact).toBeUndefined();
      expect(runtime.cache.semantic).toBeUndefined();
      expect(runtime.cache.stats().by_type.semantic).toMatchObject({ enabled: false, threshold: null });
      expect((await runtime.readiness()).dependencies.vector_db).toMatchObject({ backend: 'disabled' });
    } finally {
      await runtime.close();
    }
  });
});
