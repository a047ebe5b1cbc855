import type { CachedAnswer, ChatRequest } from '@svc/core';
import { createSentenceEncoder } from '@svc/encoder';
import { createMemoryVectorStore, createSemanticCache, type Embedder, type SemanticCache, semanticKeyOf } from '@svc/semantic';
import { cacheQuestion } from './cache-questions.js';
import { type LatencySummary, summarise } from './percentiles.js';
import { retainedBytes } from './retained-memory.js';
import { semanticCapacity } from './semantic-capacity.js';

/** A timed step: wall time per call, and this process's CPU (every thread: the encoder's too) per call. */
export interface TimedStep {
  wall: LatencySummary;
  cpuUs: number;
}

/** Semantic cache cost with the store holding `entries` questions of one organisation and scope. */
export interface SemanticCostRow {
  entries: number;
  /** Measured lookups (after the warm-up ones). */
  lookups: number;
  /** Of those, how many hit (the questions are new, so 0 unless the guard failed). */
  hits: number;
  /** `SemanticCache.lookup` given the question's embedding (search, guard, decision): what the cache adds to the embedding, µs. */
  search: TimedStep;
  /** `SemanticCache.lookup` embedding the question itself (embed + search + guard + decision), µs. */
  lookup: TimedStep;
  /** `SemanticCache.store` reusing the miss's embedding, into a full store (one eviction each), µs. */
  store: LatencySummary;
  /** What the filled cache holds in this process (heap + array buffers after a full collection, before and after filling), bytes. */
  heldBytes: number;
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
  embed: TimedStep;
  rows: SemanticCostRow[];
}

/** Store sizes measured by default: the capacity the gateway runs with (`SVC_SEMANTIC_MAX_ENTRIES`) and 10,000 (issue #17's figure). */
export function semanticSizes(capacity = semanticCapacity()): number[] {
  return [...new Set([capacity, 10_000])].sort((a, b) => a - b);
}

const orgId = 'bench';
const warmupLookups = 20;
const fillBatch = 64;

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
/** The text the cache embeds for a question (the final user message, spacing collapsed). */
const keyText = (text: string): string => semanticKeyOf(question(text))?.text ?? text;

/** Times `step(i)` for `count` calls after `warmup` untimed ones. */
async function timed(count: number, warmup: number, step: (i: number) => Promise<unknown>): Promise<TimedStep> {
  const times = new Float64Array(count);
  for (let i = 0; i < warmup; i++) await step(i);
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await step(warmup + i);
    times[i] = micros(started);
  }
  const used = process.cpuUsage(cpu);
  return { wall: summarise(times), cpuUs: (used.user + used.system) / count };
}

/** Fills the store with questions `0..entries-1`, embedded in batches as the gateway would have embedded each. */
async function fill(cache: SemanticCache, embedder: Embedder, entries: number): Promise<void> {
  for (let from = 0; from < entries; from += fillBatch) {
    const texts = Array.from({ length: Math.min(fillBatch, entries - from) }, (_, k) => cacheQuestion(from + k));
    const vectors = await embedder.embed(texts.map(keyText));
    for (const [k, text] of texts.entries()) {
      const request = question(text);
      await cache.store(request, orgId, answer, await cache.lookup(request, orgId, undefined, vectors[k]));
    }
  }
}

async function measureSize(embedder: Embedder, entries: number, lookups: number): Promise<SemanticCostRow> {
  const before = retainedBytes();
  const cache = createSemanticCache({ embedder, store: createMemoryVectorStore({ capacity: entries }) });
  await fill(cache, embedder, entries);
  const heldBytes = retainedBytes() - before;
  const asked = (i: number) => cacheQuestion(entries + i);
  const vectors = await embedder.embed(Array.from({ length: warmupLookups + lookups }, (_, i) => keyText(asked(i))));
  let hits = 0;
  const search = await timed(lookups, warmupLookups, async (i) => {
    if ((await cache.lookup(question(asked(i)), orgId, undefined, vectors[i]))?.hit && i >= warmupLookups) hits++;
  });
  // Other questions than the ones embedded above: the encoder remembers recent texts.
  const round = warmupLookups + lookups;
  const lookup = await timed(lookups, warmupLookups, (i) => cache.lookup(question(asked(round + i)), orgId));
  // Storing the misses keeps the store full: each store evicts the least recently used entry.
  const storeTimes = new Float64Array(lookups);
  for (let i = 0; i < lookups; i++) {
    const request = question(asked(2 * round + i));
    const miss = await cache.lookup(request, orgId);
    const started = performance.now();
    await cache.store(request, orgId, answer, miss);
    storeTimes[i] = micros(started);
  }
  await cache.close();
  return { entries, lookups, hits, search, lookup, store: summarise(storeTimes), heldBytes };
}

/**
 * The gateway's semantic cache in process, as it builds it by default (the shared sentence
 * encoder, all-MiniLM-L6-v2 of @svc/encoder, its calibrated decision, the in-process store
 * bounded at `entries`): fill the store with `entries` questions of one organisation and scope
 * (every entry is a search candidate, the worst case), then time new questions (all miss) looked
 * up with their embedding given (what the cache adds to the pipeline's one embedding) and
 * embedding it themselves, and store each miss's answer the way the pipeline does after the
 * upstream call. Run it on an idle machine: the encoder's thread competes for the CPUs.
 */
export async function runSemanticCost(options: { sizes?: readonly number[]; lookups?: number; embedder?: Embedder } = {}): Promise<SemanticCost> {
  const sizes = options.sizes ?? semanticSizes();
  const lookups = options.lookups ?? 300;
  const encoder = options.embedder ? undefined : createSentenceEncoder();
  const embedder = options.embedder ?? encoder!;
  try {
    const embed = await timed(lookups, warmupLookups, (i) => embedder.embed([keyText(cacheQuestion(1_000_000 + i))]));
    const probe = createSemanticCache({ embedder, store: createMemoryVectorStore() });
    const rows: SemanticCostRow[] = [];
    for (const entries of sizes) rows.push(await measureSize(embedder, entries, lookups));
    return { embedder: embedder.id, dimensions: embedder.dimensions, threshold: probe.threshold, verifierThreshold: probe.verifier?.threshold ?? null, embed, rows };
  } finally {
    await encoder?.close();
  }
}
