import { createCatalog } from '@svc/catalog';
import type { CachedAnswer, ChatRequest, StreamEvent } from '@svc/core';
import type { RecalledMemory } from '@svc/memory';
import { describe, expect, it } from 'vitest';
import type { ExactCachePort, SemanticCachePort, SemanticLookup } from './cache-stage.js';
import type { ChatResponse, ChatStreamResponse } from '../gateway.js';
import type { MemoryPort } from './memory-stage.js';
import { catalog, llama, request, scripted, setup } from '../test/gateway-harness.js';

/** An exact cache over a Map: the key is the org plus the request's messages and model. */
function mapCache(): ExactCachePort & { entries: Map<string, CachedAnswer>; lookups: number } {
  const entries = new Map<string, CachedAnswer>();
  const port = {
    entries,
    lookups: 0,
    key: (r: ChatRequest, orgId: string) => `${orgId}|${r.model}|${JSON.stringify(r.messages)}`,
    async get(key: string) {
      port.lookups++;
      const answer = entries.get(key);
      return answer ? { answer, layer: 'l0' as const } : undefined;
    },
    set: (key: string, _org: string, answer: CachedAnswer) => void entries.set(key, answer),
  };
  return port;
}

async function drain(response: ChatResponse): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of (response as ChatStreamResponse).events) out.push(event);
  return out;
}

const text = (events: StreamEvent[]) => events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

describe('the cache stage', () => {
  it('answers the second identical request from the cache, free, without calling the provider', async () => {
    const groq = scripted('groq', () => 'ok');
    const exactCache = mapCache();
    const { gateway, context, usage, decisions } = setup([groq], undefined, { exactCache });
    await gateway.chat(request({}), context());
    const hit = await gateway.chat(request({}), context());
    expect(groq.calls()).toBe(1);
    if (hit.kind !== 'json') throw new Error('json expected');
    expect(hit.result.choices[0]!.message.content).toBe('from groq');
    expect(hit.headers).toMatchObject({ 'x-svc-cache-hit': 'true', 'x-svc-cache-type': 'exact', 'x-svc-lane-used': 'turbo', 'x-svc-model': llama.id, 'x-svc-cost-usd': '0' });
    expect(Number(hit.headers['x-svc-latency-ms'])).toBeGreaterThanOrEqual(0);
    expect(hit.metadata).toMatchObject({ decision_source: 'CacheHit', cost_usd: 0, lane: 'turbo', cache_hit: true, cache_type: 'exact', savings_pct: 100 });
    expect(hit.result.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15, cachedPromptTokens: 10 });
    expect(usage.map((u) => [u.cacheHit, u.costUsd])).toEqual([
      [false, expect.any(Number)],
      [true, 0],
    ]);
    expect(decisions[1]).toMatchObject({ source: 'CacheHit', lane: 'turbo', details: { cacheLayer: 'l0' } });
  });

  it("a hit from a retiring model carries its Deprecation, Sunset and Link headers, as the model's own answer did", async () => {
    const groq = scripted('groq', () => 'ok');
    const exactCache = mapCache();
    const successor = catalog.list({ provider: 'groq', kind: 'chat' }).find((model) => model.id !== llama.id)!;
    const retiring = createCatalog(catalog.list().map((model) => (model.id === llama.id ? { ...model, retiresAt: '2099-06-30T00:00:00.000Z', replacement: successor.id } : model)));
    const { gateway, context } = setup([groq], undefined, { exactCache, catalog: retiring });
    const first = await gateway.chat(request({}), context());
    const hit = await gateway.chat(request({}), context());
    expect(hit.headers['x-svc-cache-hit']).toBe('true');
    for (const answer of [first, hit]) {
      expect(answer.headers).toMatchObject({ sunset: expect.stringContaining('2099'), deprecation: expect.stringMatching(/^@\d+$/), link: expect.stringContaining('successor-version') });
    }
  });

  it('replays a cached answer as a stream, and stores a streamed answer once it completed', async () => {
    const groq = scripted('groq', () => 'ok');
    const exactCache = mapCache();
    const { gateway, context } = setup([groq], undefined, { exactCache });
    const first = await drain(await gateway.chat(request({ stream: true }), context()));
    expect(exactCache.entries.size).toBe(1);
    const replayed = await gateway.chat(request({ stream: true }), context());
    expect(replayed.headers['x-svc-cache-hit']).toBe('true');
    const events = await drain(replayed);
    expect(text(events)).toBe(text(first));
    expect(events.some((e) => e.type === 'finish')).toBe(true);
    const json = await gateway.chat(request({}), context());
    expect(json.kind === 'json' && json.result.choices[0]!.message.content).toBe('hello world');
    expect(groq.calls()).toBe(1);
  });

  it('skips the cache in proxy mode and when enable_cache is false', async () => {
    const groq = scripted('groq', () => 'ok');
    const exactCache = mapCache();
    const { gateway, context } = setup([groq], undefined, { exactCache });
    await gateway.chat(request({}), context('proxy'));
    await gateway.chat(request({ svc: { enableCache: false } }), context());
    expect(exactCache.lookups).toBe(0);
    expect(exactCache.entries.size).toBe(0);
    await gateway.chat(request({ svc: { intelligenceMode: 'cache' } }), context('cache'));
    expect(exactCache.lookups).toBe(1);
    expect(exactCache.entries.size).toBe(1);
  });

  it('never stores an answer the provider filtered, or a stream that was cut', async () => {
    const exactCache = mapCache();
    const filtered = scripted('groq', () => 'ok');
    const original = filtered.chat.bind(filtered);
    filtered.chat = async (req, options) => {
      const result = await original(req, options);
      result.choices[0]!.finishReason = 'content_filter';
      return result;
    };
    const { gateway, context } = setup([filtered], undefined, { exactCache });
    await gateway.chat(request({}), context());
    expect(exactCache.entries.size).toBe(0);

    const cut = scripted('groq', () => 'ok');
    cut.stream = async () =>
      (async function* (): AsyncGenerator<StreamEvent> {
        yield { type: 'text-delta', choice: 0, text: 'half' };
      })();
    const other = setup([cut], undefined, { exactCache });
    await drain(await other.gateway.chat(request({ stream: true }), other.context()));
    expect(exactCache.entries.size).toBe(0);
  });

  it('serves a semantic hit with its similarity, and stores misses in the semantic cache', async () => {
    const groq = scripted('groq', () => 'ok');
    const stored: SemanticLookup[] = [];
    let answer: CachedAnswer | undefined;
    const semanticCache: SemanticCachePort = {
      lookup: async () => (answer ? { hit: true, answer, similarity: 0.9731 } : { hit: false, reuse: 'embedding' }),
      store: (_r, _o, a, miss) => {
        answer = a;
        if (miss) stored.push(miss);
      },
    };
    const { gateway, context } = setup([groq], undefined, { semanticCache });
    const first = await gateway.chat(request({}), context());
    expect(stored).toEqual([{ hit: false, reuse: 'embedding' }]);
    const hit = await gateway.chat(request({ messages: [{ role: 'user', content: 'hello?' }] }), context());
    expect(hit.headers).toMatchObject({ 'x-svc-cache-type': 'semantic', 'x-svc-semantic-similarity': '0.9731' });
    // The cached question's request id, so an operator can see what answered.
    expect(answer?.requestId).toBeTruthy();
    expect(answer?.requestId).toBe(first.headers['x-svc-request-id']);
    expect(hit.kind === 'json' && hit.metadata).toMatchObject({ semantic_similarity: 0.9731, decision_source: 'CacheHit', cached_request_id: answer?.requestId });
    expect(groq.calls()).toBe(1);
  });

  it('recalls memory while the semantic cache looks up, not after it, and never for an exact hit', async () => {
    const groq = scripted('groq', () => 'ok');
    const exactCache = mapCache();
    const fact: RecalledMemory = { id: 'm1', orgId: 'org_1', subject: 'k:key_1', conversationId: null, role: 'user', slot: null, text: 'My favourite colour is teal.', entities: [], createdAt: new Date(), updatedAt: new Date(), score: 0.9 };
    let recallStarted: () => void = () => {};
    const recalling = new Promise<void>((resolve) => {
      recallStarted = resolve;
    });
    let recalls = 0;
    const memory: MemoryPort = {
      remember: () => 0,
      recall: async () => {
        recalls++;
        recallStarted();
        return [fact];
      },
    };
    // The lookup answers only once recall has begun: run one after the other, the request would hang.
    const semanticCache: SemanticCachePort = { lookup: async () => recalling.then(() => ({ hit: false })), store: () => {} };
    const { gateway, context } = setup([groq], undefined, { exactCache, semanticCache, memory });
    const first = await gateway.chat(request({}), context('full'));
    expect(first.kind === 'json' && first.metadata.memory).toMatchObject({ injected: 1 });
    expect(recalls).toBe(1);
    const hit = await gateway.chat(request({}), context('full'));
    expect(hit.headers['x-svc-cache-type']).toBe('exact');
    expect(recalls).toBe(1);
  });
});
