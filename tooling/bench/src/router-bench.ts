import { builtInModels, createCatalog, type ModelInfo } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { classify, createRouter, extractFeatures } from '@svc/router';
import { type LatencySummary, summarise } from './percentiles.js';

/** One kind of request in the routing mix, and how often it occurs. */
export interface RouterWorkloadKind {
  name: string;
  weight: number;
  request: ChatRequest;
}

/** Cost of routing decisions over a fixed catalog, in microseconds. */
export interface RouterBenchResult {
  catalogModels: number;
  warmup: number;
  decisions: number;
  /** `route()` latency over the whole mix, µs. */
  route: LatencySummary;
  /** Decisions per second on one core (measured count over the measured loop's wall time). */
  decisionsPerSec: number;
  /** `extractFeatures` + `classify` alone, µs per call. */
  classify: LatencySummary;
  /** `router.record()` (policy update), µs per call. */
  record: LatencySummary;
  /** `route()` per request kind, µs. */
  byKind: { name: string; share: number; promptChars: number; route: LatencySummary }[];
}

const size = 100;

/**
 * The built-in catalog's chat models trimmed (evenly across tiers, in catalog order) or padded
 * (copies with a `-pad-N` suffix) to exactly `count` models, so the figure does not move when
 * the catalog grows.
 */
export function benchCatalogModels(models: readonly ModelInfo[] = builtInModels, count = size): ModelInfo[] {
  const chat = models.filter((m) => m.kind === 'chat');
  if (chat.length === 0) throw new Error('the catalog has no chat model');
  const out: ModelInfo[] = [];
  if (chat.length >= count) {
    const byTier = (['T1', 'T2', 'T3'] as const).map((t) => chat.filter((m) => m.tier === t));
    for (let i = 0; out.length < count; i++) for (const tier of byTier) if (i < tier.length && out.length < count) out.push(tier[i]!);
    return out;
  }
  out.push(...chat);
  for (let i = 0; out.length < count; i++) {
    const m = chat[i % chat.length]!;
    out.push({ ...m, id: `${m.id}-pad-${i}`, upstreamId: `${m.upstreamId}-pad-${i}` });
  }
  return out;
}

const user = (content: string): ChatRequest['messages'][number] => ({ role: 'user', content });
const base = (messages: ChatRequest['messages'], extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'svc/auto',
  messages,
  stream: false,
  n: 1,
  includeUsage: false,
  ...extra,
});

const codeLine = (i: number) =>
  `  const item${i} = await store.get(keys[${i}]); if (item${i} === undefined) { throw new Error('missing ${i}'); } total += item${i}.price * (1 - discount);\n`;
const longCode = `Here is a TypeScript module that is slow and sometimes throws "missing" under load. Explain the race condition, then refactor it so that the lookups run concurrently with bounded parallelism and unit tests cover the error path.\n\n\`\`\`ts\nexport async function total(store: Store, keys: string[], discount: number): Promise<number> {\n  let total = 0;\n${Array.from({ length: 120 }, (_, i) => codeLine(i)).join('')}  return total;\n}\n\`\`\`\nKeep the public signature and explain every change step by step.`;
const longDocument = `Summarise the key points of the following report in five bullet points, then list every risk it names.\n\n${'Revenue in the third quarter grew 12% year over year, driven by subscriptions in Europe and a recovery in hardware sales; operating costs rose 8%, mostly headcount in support. The board flagged currency exposure and a pending regulatory review in two markets as the main risks for next year. '.repeat(60)}`;
const history: ChatRequest['messages'] = [
  { role: 'system', content: 'You are a concise assistant for a travel agency.' },
  user('I want to visit Lisbon in March for four days.'),
  { role: 'assistant', content: 'Great choice. Do you prefer museums, food or day trips?' },
  user('Food mostly, and one day trip.'),
  { role: 'assistant', content: 'Then plan Sintra for the day trip and book a tasca dinner in Alfama.' },
  user('What should I book in advance, and how early?'),
];

const kinds: RouterWorkloadKind[] = [
  { name: 'short chat', weight: 30, request: base([user('hi! can you help me plan my week?')]) },
  { name: 'question', weight: 20, request: base([user('Why does the moon always show the same face to the earth? Explain briefly.')]) },
  { name: 'multi-turn', weight: 10, request: base(history) },
  { name: 'long code', weight: 10, request: base([user(longCode)]) },
  { name: 'long document', weight: 5, request: base([user(longDocument)]) },
  {
    name: 'tools',
    weight: 10,
    request: base([user('What is the weather in Paris tomorrow, and should I take an umbrella?')], {
      tools: [
        { name: 'get_weather', description: 'Forecast for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'get_time', description: 'Local time in a city' },
      ],
      toolChoice: 'auto',
    }),
  },
  {
    name: 'hints',
    weight: 10,
    request: base([user('Translate into French: the meeting moved to Thursday at 10.')], {
      routingHints: { mode: 'cost_optimized', preferenceDial: 0.3, maxTier: 2, maxLatencyMs: 1500 },
    }),
  },
  {
    name: 'json + effort',
    weight: 5,
    request: base([user('Extract the names, dates and amounts from this invoice: ACME Ltd, 2026-03-01, 1,250.00 EUR; Foo GmbH, 2026-03-04, 310.50 EUR.')], {
      responseFormat: { type: 'json_object' },
      reasoningEffort: 'high',
    }),
  },
];

/**
 * A realistic mix: mostly short chat, some long code and documents, tools and routing hints.
 * Each request goes through JSON once, so its strings are flat like those of a parsed request
 * body (built by `repeat` and `+` they would be rope strings, slower to scan).
 */
export const routerWorkload: readonly RouterWorkloadKind[] = kinds.map((k) => ({ ...k, request: JSON.parse(JSON.stringify(k.request)) as ChatRequest }));

/** Indices into `routerWorkload`, deterministic and interleaved in proportion to the weights. */
function schedule(length: number): Uint8Array {
  const total = routerWorkload.reduce((s, k) => s + k.weight, 0);
  const out = new Uint8Array(length);
  let state = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    let pick = (state / 4294967296) * total;
    let k = 0;
    while (pick >= routerWorkload[k]!.weight) pick -= routerWorkload[k++]!.weight;
    out[i] = k;
  }
  return out;
}

function promptChars(request: ChatRequest): number {
  let n = 0;
  for (const m of request.messages) if (typeof m.content === 'string') n += m.content.length;
  return n;
}

/**
 * Routes the workload over a 100-model catalog: `warmup` decisions (with outcomes recorded, so
 * the learned policy has weights), then `decisions` measured one by one with `performance.now()`.
 * Single-threaded and synchronous: run it on an otherwise idle core.
 */
export function runRouterBench(options: { warmup?: number; decisions?: number } = {}): RouterBenchResult {
  const warmup = options.warmup ?? 20_000;
  const decisions = options.decisions ?? 50_000;
  const catalog = createCatalog(benchCatalogModels());
  const router = createRouter({ catalog });
  const requests = routerWorkload.map((k) => k.request);
  const warm = schedule(warmup);
  for (let i = 0; i < warmup; i++) {
    const decision = router.route(requests[warm[i]!]!);
    router.record({ decision, success: i % 7 !== 0, latencyMs: 400 + (i % 13) * 50, completionTokens: 200 + (i % 5) * 40 });
  }

  const order = schedule(decisions);
  const times = new Float64Array(decisions);
  const loopStart = performance.now();
  for (let i = 0; i < decisions; i++) {
    const t = performance.now();
    router.route(requests[order[i]!]!);
    times[i] = (performance.now() - t) * 1000;
  }
  const loopMs = performance.now() - loopStart;

  const classifyTimes = new Float64Array(decisions);
  for (let i = 0; i < decisions; i++) {
    const t = performance.now();
    classify(extractFeatures(requests[order[i]!]!));
    classifyTimes[i] = (performance.now() - t) * 1000;
  }

  const recordCount = Math.min(decisions, 10_000);
  const recordTimes = new Float64Array(recordCount);
  const decided = requests.map((r) => router.route(r));
  for (let i = 0; i < recordCount; i++) {
    const decision = decided[order[i]!]!;
    const t = performance.now();
    router.record({ decision, success: i % 5 !== 0, latencyMs: 500, completionTokens: 300 });
    recordTimes[i] = (performance.now() - t) * 1000;
  }

  const byKind = routerWorkload.map((kind, k) => {
    const mine: number[] = [];
    for (let i = 0; i < decisions; i++) if (order[i] === k) mine.push(times[i]!);
    return { name: kind.name, share: mine.length / decisions, promptChars: promptChars(kind.request), route: summarise(mine) };
  });
  return {
    catalogModels: catalog.list({ kind: 'chat' }).length,
    warmup,
    decisions,
    route: summarise(times),
    decisionsPerSec: decisions / (loopMs / 1000),
    classify: summarise(classifyTimes),
    record: summarise(recordTimes),
    byKind,
  };
}
