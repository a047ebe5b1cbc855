import type { CachedAnswer, ChatRequest } from '@svc/core';
import type { RecalledMemory } from '@svc/memory';
import { HedgeStats, LatencyTracker } from '@svc/resilience';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import type { ExactCachePort, SemanticCachePort } from './cache-stage.js';
import type { ChatJsonResponse, ChatResponse, ChatStreamResponse } from '../gateway.js';
import type { MemoryPort } from './memory-stage.js';
import { ALL_FLAGS_ON, type DegradationLevel, type FlagKey, type Switches, buildSwitches } from '../switches/switches.js';
import { answering, llama, request, setup } from '../test/gateway-harness.js';

const switched = (level: DegradationLevel, off: FlagKey[] = []): { current: Switches } => ({
  current: buildSwitches(level, { ...ALL_FLAGS_ON, ...Object.fromEntries(off.map((key) => [key, false])) }),
});

const json = (response: ChatResponse) => response as ChatJsonResponse;
const shedOf = (response: ChatResponse) => json(response).metadata.shed_stages ?? [];

function mapCache(): ExactCachePort {
  const entries = new Map<string, CachedAnswer>();
  return {
    key: (r: ChatRequest, orgId: string) => `${orgId}|${r.model}|${JSON.stringify(r.messages)}`,
    get: async (key) => {
      const answer = entries.get(key);
      return answer ? { answer, layer: 'l0' } : undefined;
    },
    set: (key, _org, answer) => void entries.set(key, answer),
  };
}

/** A semantic cache that finds a close answer for every request. */
const alwaysSimilar: SemanticCachePort = {
  lookup: async () => ({
    hit: true,
    similarity: 0.97,
    answer: { result: { model: llama.upstreamId, choices: [{ index: 0, message: { role: 'assistant', content: 'cached' }, finishReason: 'stop' }] }, model: llama.id, provider: llama.provider, tier: llama.tier, storedAt: Date.now() },
  }),
  store: () => {},
};

/** A memory that recalls one fact and records what it is asked to remember. */
function factMemory() {
  const remembered: string[] = [];
  const fact: RecalledMemory = { id: 'm1', orgId: 'org_1', subject: 'k:key_1', conversationId: null, role: 'user', slot: null, text: 'My favourite colour is teal.', entities: [], createdAt: new Date(), updatedAt: new Date(), score: 0.9 };
  const port: MemoryPort & { remembered: string[]; recalls: number } = {
    remembered,
    recalls: 0,
    remember: (_scope, text) => {
      remembered.push(text);
      return 1;
    },
    recall: async () => {
      port.recalls++;
      return [fact];
    },
  };
  return port;
}

describe('feature flags and degradation in the request path', () => {
  it('exact_cache off: an identical request goes to the provider again, and the answer says the stage was skipped', async () => {
    const groq = answering('groq');
    const metrics = createMetrics({ defaultMetrics: false });
    const switches = switched('none');
    const { gateway, context, decisions } = setup([groq], undefined, { exactCache: mapCache(), switches, metrics });
    await gateway.chat(request({}), context());
    expect(json(await gateway.chat(request({}), context())).headers['x-svc-cache-hit']).toBe('true');
    switches.current = switched('none', ['exact_cache']).current;
    const missed = json(await gateway.chat(request({}), context()));
    expect(missed.headers['x-svc-cache-hit']).toBe('false');
    expect(missed.headers['x-svc-shed-stages']).toBe('exact_cache');
    expect(missed.headers['x-svc-degradation']).toBeUndefined();
    expect(missed.metadata.shed_stages).toEqual(['exact_cache']);
    expect(decisions.at(-1)!.details).toMatchObject({ shed: ['exact_cache'] });
    expect(groq.asked).toHaveLength(2);
    expect(await metrics.metrics()).toContain('svc_stages_shed_total{stage="exact_cache",reason="flag"} 1');
  });

  it('semantic_cache: kept at light, shed at heavy and by its flag', async () => {
    const groq = answering('groq');
    const switches = switched('none');
    const { gateway, context } = setup([groq], undefined, { semanticCache: alwaysSimilar, switches });
    expect(json(await gateway.chat(request({}), context())).metadata.cache_type).toBe('semantic');
    switches.current = switched('light').current;
    const light = json(await gateway.chat(request({}), context()));
    expect(light.metadata).toMatchObject({ cache_type: 'semantic', degradation_level: 'light' });
    expect(light.headers['x-svc-degradation']).toBe('light');
    switches.current = switched('heavy').current;
    const heavy = json(await gateway.chat(request({}), context()));
    expect(heavy.metadata.cache_hit).toBeUndefined();
    expect(heavy.metadata).toMatchObject({ degradation_level: 'heavy', shed_stages: ['semantic_cache'] });
    switches.current = switched('none', ['semantic_cache']).current;
    expect(shedOf(await gateway.chat(request({}), context()))).toEqual(['semantic_cache']);
    expect(groq.asked).toHaveLength(2);
  });

  it('memory: recalled and stored normally; neither at light nor with its flag off', async () => {
    for (const [switches, reason] of [
      [switched('light'), 'light'],
      [switched('none', ['memory']), 'flag'],
    ] as const) {
      const groq = answering('groq');
      const memory = factMemory();
      const { gateway, context } = setup([groq], undefined, { memory, switches: switched('none') });
      await gateway.chat(request({}), context());
      expect(groq.asked[0]!.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('teal') });
      // What the user said is offered to memory (which keeps only stated facts); never the answer.
      expect(memory.remembered).toEqual(['hi']);

      const shedding = setup([groq], undefined, { memory, switches });
      const response = await shedding.gateway.chat(request({}), shedding.context());
      expect(groq.asked[1]!.messages.map((m) => m.role), reason).toEqual(['user']);
      expect(memory.recalls).toBe(1);
      expect(memory.remembered).toHaveLength(1);
      expect(shedOf(response)).toEqual(['memory']);
    }
  });

  it('memory is shed from streams too, named in the headers and the final metadata', async () => {
    const groq = answering('groq');
    const memory = factMemory();
    const { gateway, context } = setup([groq], undefined, { memory, switches: switched('light') });
    const response = (await gateway.chat(request({ stream: true }), context())) as ChatStreamResponse;
    expect(response.headers).toMatchObject({ 'x-svc-degradation': 'light', 'x-svc-shed-stages': 'memory' });
    for await (const _ of response.events);
    expect(response.metadata()).toMatchObject({ degradation_level: 'light', shed_stages: ['memory'] });
    expect(groq.asked[0]!.messages.map((m) => m.role)).toEqual(['user']);
    expect(memory.recalls).toBe(0);
  });

  it('hedging: a request asking for it is not hedged at light or with its flag off', async () => {
    for (const switches of [switched('light'), switched('none', ['hedging'])]) {
      const hedging = { latency: new LatencyTracker({ minSamples: 3, minDelayMs: 20 }), stats: new HedgeStats(), config: { enabledByDefault: false } };
      const current = { current: switched('none').current };
      const { gateway, context } = setup([answering('groq'), answering('together')], undefined, { hedging, switches: current });
      for (let i = 0; i < 3; i++) await gateway.chat(request({}), context()); // the primary's latency is learned
      await gateway.chat(request({ svc: { enableHedging: true } }), context());
      expect(hedging.stats.requests).toBe(1);
      current.current = switches.current;
      const response = await gateway.chat(request({ svc: { enableHedging: true } }), context());
      expect(hedging.stats.requests).toBe(1);
      expect(shedOf(response)).toEqual(['hedging']);
      // A request that never asked for hedging sheds nothing.
      expect(shedOf(await gateway.chat(request({}), context()))).toEqual([]);
    }
  });

  it('speculation: no draft at heavy or with its flag off; reported not applied', async () => {
    for (const switches of [switched('heavy'), switched('none', ['speculation'])]) {
      const providers = ['groq', 'together', 'anthropic', 'openai'].map((id) => answering(id, () => '{"answer": 42}'));
      const { gateway, context, decisions } = setup(providers, undefined, { switches });
      const response = json(await gateway.chat(request({ model: 'auto', responseFormat: { type: 'json_object' }, svc: { enableSpeculation: true } }), context()));
      expect(response.headers['x-svc-speculation-accepted']).toBe('0');
      expect(response.metadata.not_applied).toContain('svc.enable_speculation');
      expect(response.metadata.shed_stages).toContain('speculation');
      expect(decisions[0]!.details).not.toHaveProperty('speculation');
      expect(providers.reduce((n, p) => n + p.asked.length, 0)).toBe(1);
    }
  });

  it('output_verification off: a fenced JSON answer is returned as written, verification reported not applied', async () => {
    const groq = answering('groq', () => '```json\n{"city": "Paris"}\n```');
    const { gateway, context } = setup([groq], undefined, { switches: switched('none', ['output_verification']) });
    const response = json(await gateway.chat(request({ responseFormat: { type: 'json_object' }, svc: { outputVerification: 'native' } }), context()));
    expect(response.result.choices[0]!.message.content).toContain('```');
    expect(response.metadata.healer_report).toBeUndefined();
    expect(response.metadata.not_applied).toContain('svc.output_verification');
    expect(response.metadata.shed_stages).toEqual(['output_verification']);
  });

  it('heavy keeps healing but never re-asks a model', async () => {
    const groq = answering('groq', (call) => (call === 0 ? 'I cannot say.' : '{"city":"Rome"}'));
    const { gateway, context, usage } = setup([groq], undefined, { switches: switched('heavy') });
    const response = json(await gateway.chat(request({ responseFormat: { type: 'json_object' }, svc: { outputVerification: 'native' } }), context()));
    expect(groq.asked).toHaveLength(1);
    expect(usage.map((u) => u.requestId.endsWith(':reask'))).toEqual([false]);
    expect(response.metadata.healer_report).toMatchObject({ confidence: 0 });
    expect(response.metadata.shed_stages).toEqual(['verification_reask']);
    const fenced = answering('groq', () => '```json\n{"city": "Paris"}\n```');
    const healing = setup([fenced], undefined, { switches: switched('heavy') });
    const healed = json(await healing.gateway.chat(request({ responseFormat: { type: 'json_object' } }), healing.context()));
    expect(JSON.parse(healed.result.choices[0]!.message.content!)).toEqual({ city: 'Paris' });
  });

  it('changes nothing while the switches are normal', async () => {
    const { gateway, context } = setup([answering('groq')], undefined, { memory: factMemory(), switches: switched('none') });
    const response = json(await gateway.chat(request({ svc: { enableHedging: true } }), context()));
    expect(response.headers['x-svc-degradation']).toBeUndefined();
    expect(response.headers['x-svc-shed-stages']).toBeUndefined();
    expect(response.metadata).not.toHaveProperty('shed_stages');
    expect(response.metadata).not.toHaveProperty('degradation_level');
  });
});
