import type { DependencyStatus, Readiness } from '@svc/http-kit';
import type { CacheService } from './cache.js';
import type { SentenceEncoderService } from './sentence-encoder.js';

/** Resolves false after `ms` instead of hanging: a probe must answer fast. */
export async function probe(check: () => Promise<boolean>, ms: number): Promise<{ up: boolean; latencyMs: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const up = await Promise.race([check().catch(() => false), timeout]);
    return { up, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** Required backends down -> not_ready; only optional ones down -> degraded. */
export function summarise(dependencies: Readiness['dependencies']): Readiness {
  const all = Object.values(dependencies);
  const requiredDown = all.some((d) => d.required && d.status === 'down');
  const optionalDown = all.some((d) => !d.required && d.status === 'down');
  const status = requiredDown ? 'not_ready' : optionalDown ? 'degraded' : 'ready';
  return { ready: !requiredDown, status, dependencies };
}

/** `/ready` of a runtime: the database and the kv (required), the semantic cache's vector store and the sentence encoder (optional). */
export async function runtimeReadiness(parts: {
  db: { ping(): Promise<boolean>; kind: string };
  kv: { ping(): Promise<boolean> };
  sharedKv: boolean;
  cache: CacheService;
  encoder: SentenceEncoderService;
}): Promise<Readiness> {
  const { db, kv } = parts;
  const store = parts.cache.vectorStore;
  const [database, shared, vectors] = await Promise.all([
    probe(() => db.ping(), 1_000),
    probe(() => kv.ping(), 1_000),
    store ? probe(() => store.ping(), 1_000) : Promise.resolve(undefined),
  ]);
  const vectorDb: DependencyStatus = vectors
    ? { status: vectors.up ? 'up' : 'down', backend: store!.backend, required: false, latency_ms: vectors.latencyMs }
    : { status: 'up', backend: 'disabled', required: false };
  return summarise({
    database: { status: database.up ? 'up' : 'down', backend: db.kind, required: true, latency_ms: database.latencyMs },
    kv: { status: shared.up ? 'up' : 'down', backend: parts.sharedKv ? 'redis' : 'in_process', required: true, latency_ms: shared.latencyMs },
    // Optional: when it is down the gateway serves on, semantic lookups become misses (degraded).
    vector_db: vectorDb,
    encoder: parts.encoder.status(),
  });
}
