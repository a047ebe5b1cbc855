import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.js';
import { createRuntime } from './runtime.js';

describe('createRuntime', () => {
  it('starts with a first breaker cooldown longer than the default ceiling', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_BREAKER_COOLDOWN_MS: '600000' }));
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
      parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_CONFIG: config, SVC_ROUTER_EXPLORE: '0', SVC_SEMANTIC_CACHE: '0' }),
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
    await expect(createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', LOG_LEVEL: 'silent', SVC_CONFIG: config }))).rejects.toThrow(ConfigError);
    await expect(createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', LOG_LEVEL: 'silent', SVC_CONFIG: config }))).rejects.toThrow(/flags are exact_cache/);
  });
});

describe('readiness with the vector store down', () => {
  it('is degraded (200-class, ready) and the gateway keeps answering, semantic lookups missing', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', QDRANT_URL: 'http://127.0.0.1:9' }));
    try {
      const readiness = await runtime.readiness();
      expect(readiness).toMatchObject({ ready: true, status: 'degraded', dependencies: { vector_db: { status: 'down', backend: 'qdrant', required: false } } });
      const org = await runtime.db.orgs.ensure('vector-down');
      const caller = { keyId: 'k', keyPrefix: 'sk', org, scopes: new Set(['inference:chat'] as const) };
      const ask = () =>
        runtime.gateway.chat(
          { model: 'mock/mock-value', messages: [{ role: 'user', content: 'What is a vector database?' }], stream: false, n: 1, includeUsage: false },
          { caller, requestId: `req_${Math.random()}`, startedAt: performance.now(), signal: new AbortController().signal },
        );
      expect((await ask()).kind).toBe('json');
      expect(runtime.cache.stats().by_type.semantic).toMatchObject({ enabled: true, hits: 0 });
    } finally {
      await runtime.close();
    }
  });

  it('reports the in-process index as up by default, and disabled when the semantic cache is off', async () => {
    const on = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
    const off = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_SEMANTIC_CACHE: '0' }));
    try {
      expect((await on.readiness()).dependencies.vector_db).toMatchObject({ status: 'up', backend: 'in_process' });
      expect((await off.readiness()).dependencies.vector_db).toMatchObject({ status: 'up', backend: 'disabled' });
      expect(off.cache.stats().by_type.semantic.enabled).toBe(false);
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });

  it('turns both answer caches off when cached answers may not be kept (SVC_CACHE_TTL_SECS=0)', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_CACHE_TTL_SECS: '0' }));
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
