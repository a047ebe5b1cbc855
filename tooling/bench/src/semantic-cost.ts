import type { CachedAnswer, ChatRequest } from '@svc/core';
import { createHashedEmbedder, createMemoryVectorStore, createSemanticCache } from '@svc/semantic';
import { cacheQuestion } from './cache-questions.js';
import { type LatencySummary, summarise } from './percentiles.js';
import { semanticCapacity } from './semantic-capacity.js';

/** Semantic cache cost with the store holding `entries` questions of one organisation and scope. */
export interface SemanticCostRow {
  entries: number;
  /** Measured lookups (after the warm-up ones). */
  lookups: number;
  /** Of those, how many hit (the questions are new, so 0 unless the guard failed). */
  hits: number;
  /** `SemanticCache.lookup` (embed + brute-force search + key-term guard), µs. */
  lookup: LatencySummary;
  /** CPU time (user + system) of this process per lookup, µs. */
  lookupCpuUs: number;
  /** `SemanticCache.store` reusing the miss's embedding, into a full store (one eviction each), µs. */
  store: LatencySummary;
}

/** What the in-process semantic measurement produced. */
export interface SemanticCost {
  embedder: string;
  dimensions: number;
  /** Lowest cosine a stored question needs (with a verifier: to be verified at all). */
  threshold: number;
  /** The verifier's probability threshold, or null when the cache decides by similarity alone. */
  verifierThreshold: number | null;
  /** `embedder.embed([question])` alone, µs. */
  embed: LatencySummary;
  rows: SemanticCostRow[];
}

/** Store sizes measured by default: half and all of the capacity the gateway runs with (`SVC_SEMANTIC_MAX_ENTRIES`). */
export function semanticSizes(capacity = semanticCapacity()): number[] {
  return [...new Set([Math.max(1, Math.floor(capacity / 2)), capacity])];
}

const orgId = 'bench';
const warmupLookups = 200;

function question(text: string): ChatRequest {
  return { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: text }], stream: false, n: 1, includeUsage: false };
}

const answer: CachedAnswer = {
  result: {
    id: 'chatcmpl-bench',
    model: 'gpt-4o-mini',
    created: 1_700_000_000,
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
    usage: { promptTokens: 20, completionTokens: 16, totalTokens: 36 },
  },
  model: 'openai/gpt-4o-mini',
  provider: 'openai',
  tier: 'T3',
  storedAt: 1_700_000_000_000,
};

const micros = (since: number): number => (performance.now() - since) * 1000;

/**
 * The gateway's semantic cache in process, as it builds it (`createHashedEmbedder()` with its
 * trained verifier, the in-process store bounded at `entries`): fill the store with
 * `entries` questions of one organisation and scope (every entry is a search candidate, the
 * worst case), then time `lookups` new questions one by one (all miss) and store each miss's
 * answer the way the pipeline does after the upstream call. Single-threaded: run it on an idle core.
 */
export async function runSemanticCost(options: { sizes?: readonly number[]; lookups?: number } = {}): Promise<SemanticCost> {
  const sizes = options.sizes ?? semanticSizes();
  const lookups = options.lookups ?? 2_000;
  const embedder = createHashedEmbedder();
  const embedTimes = new Float64Array(lookups);
  for (let i = 0; i < warmupLookups + lookups; i++) {
    const started = performance.now();
    await embedder.embed([cacheQuestion(1_000_000 + i)]);
    if (i >= warmupLookups) embedTimes[i - warmupLookups] = micros(started);
  }
  const rows: SemanticCostRow[] = [];
  let threshold = Number.NaN;
  let verifierThreshold: number | null = null;
  for (const entries of sizes) {
    const store = createMemoryVectorStore({ capacity: entries });
    const cache = createSemanticCache({ embedder, store });
    threshold = cache.threshold;
    verifierThreshold = cache.verifier?.threshold ?? null;
    for (let i = 0; i < entries; i++) await cache.store(question(cacheQuestion(i)), orgId, answer);
    const lookupTimes = new Float64Array(lookups);
    const storeTimes = new Float64Array(lookups);
    let hits = 0;
    let cpu = process.cpuUsage();
    for (let i = 0; i < warmupLookups + lookups; i++) {
      if (i === warmupLookups) cpu = process.cpuUsage();
      const request = question(cacheQuestion(entries + i));
      const started = performance.now();
      const found = await cache.lookup(request, orgId);
      if (i < warmupLookups) continue;
      lookupTimes[i - warmupLookups] = micros(started);
      if (found?.hit) hits++;
    }
    const used = process.cpuUsage(cpu);
    // Storing the misses keeps the store full: each store evicts the least recently used entry.
    for (let i = 0; i < lookups; i++) {
      const request = question(cacheQuestion(entries + warmupLookups + lookups + i));
      const miss = await cache.lookup(request, orgId);
      const started = performance.now();
      await cache.store(request, orgId, answer, miss);
      storeTimes[i] = micros(started);
    }
    await cache.close();
    rows.push({
      entries,
      lookups,
      hits,
      lookup: summarise(lookupTimes),
      lookupCpuUs: (used.user + used.system) / lookups,
      store: summarise(storeTimes),
    });
  }
  return { embedder: embedder.id, dimensions: embedder.dimensions, threshold, verifierThreshold, embed: summarise(embedTimes), rows };
}
