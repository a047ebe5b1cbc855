import type { Embedder } from '@svc/semantic';
import { createSemanticCache, type SemanticCacheSettings } from '@svc/semantic';
import { createMemoryVectorStore } from '@svc/semantic';
import { cachedAnswer, chatRequest } from '@svc/semantic/test';

export interface LookupCost {
  entries: number;
  lookups: number;
  /** Of those, how many hit (a stored question's pair partner was asked). */
  hits: number;
  /** Per lookup (embed + search + guard), microseconds. */
  meanUs: number;
  p50Us: number;
  p99Us: number;
  /** CPU time (user + system) per lookup, microseconds: steadier than wall time on a busy machine. */
  cpuUs: number;
}

const ask = (question: string) => chatRequest(question);

/**
 * Time of `SemanticCache.lookup` over the in-process store holding `entries` questions of one
 * organisation and scope (the worst case: every entry is a candidate), for `queries`.
 */
export async function measureLookupCost(
  embedder: Embedder,
  stored: readonly string[],
  queries: readonly string[],
  entries: number,
  settings: Pick<SemanticCacheSettings, 'threshold' | 'verifier' | 'ambiguityMargin' | 'candidates'> = {},
): Promise<LookupCost> {
  const store = createMemoryVectorStore({ capacity: entries });
  const cache = createSemanticCache({ embedder, store, lookupTimeoutMs: 60_000, ...settings });
  const answer = cachedAnswer('stored answer');
  for (const text of stored.slice(0, entries)) await cache.store(ask(text), 'bench', answer);
  const times: number[] = [];
  let cpu = { user: 0, system: 0 };
  let hits = 0;
  for (const [i, text] of queries.entries()) {
    if (i === 50) cpu = process.cpuUsage();
    const request = ask(text);
    const started = performance.now();
    const found = await cache.lookup(request, 'bench');
    if (i < 50) continue; // the first 50 warm the JIT
    times.push((performance.now() - started) * 1000);
    if (found?.hit) hits++;
  }
  const used = process.cpuUsage(cpu);
  await store.close();
  times.sort((a, b) => a - b);
  const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { entries: Math.min(entries, stored.length), lookups: times.length, hits, meanUs: times.reduce((s, t) => s + t, 0) / Math.max(1, times.length), p50Us: pick(0.5), p99Us: pick(0.99), cpuUs: (used.user + used.system) / Math.max(1, times.length) };
}
