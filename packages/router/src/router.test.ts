import { type ChatRequest, GatewayError } from '@svc/core';
import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { createRouter } from './router.js';
import { createMemoryStickyRoutes } from './state.js';
import { ask, fixtureCatalog, hard } from './test/fixture-catalog.js';

const catalog = fixtureCatalog();
const router = () => createRouter({ catalog });

/** `run` throws a GatewayError naming `param`: 404 for `model_not_found`, else 400. */
function rejects(run: () => unknown, param: string, code?: string) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(code === 'model_not_found' ? 404 : 400);
    expect((error as GatewayError).param).toBe(param);
    if (code) expect((error as GatewayError).code).toBe(code);
    return;
  }
  throw new Error('expected an error');
}

/** Score of candidate `a` minus that of `b` in one decision (scores compare only within a decision). */
function gap(decision: { candidates: readonly { id: string; score: number }[] }, a: string, b: string): number {
  const score = (id: string) => decision.candidates.find((c) => c.id === id)?.score ?? Number.NaN;
  return score(a) - score(b);
}

describe('explicit models', () => {
  it('honours a slug exactly, with same-family fallback and the turbo lane', () => {
    const d = router().route(ask('hi', { model: 'open/llama-70b' }));
    expect(d.model.id).toBe('open/llama-70b');
    expect(d.waterfall.map((m) => m.id)).toEqual(['open/llama-70b', 'other/llama-70b']);
    expect(d).toMatchObject({ source: 'Pinned', lane: 'turbo', candidates: [] });
  });

  it('resolves a bare upstream name', () => {
    expect(router().route(ask(hard, { model: 'mini' })).model.id).toBe('acme/mini');
  });

  it('rejects an unknown model naming `model`', () => {
    rejects(() => router().route(ask('hi', { model: 'nope/nothing' })), 'model', 'model_not_found');
  });

  it('moves siblings with an open breaker to the end, keeping the pinned model first', () => {
    const family = [
      ...catalog.list(),
      { ...catalog.get('other/llama-70b')!, id: 'third/llama-70b', provider: 'third' },
    ];
    const r = createRouter({ catalog: createCatalog(family) });
    const open = new Set(['open/llama-70b', 'other/llama-70b']);
    const d = r.route(ask('hi', { model: 'open/llama-70b' }), { breakerOpen: (id) => open.has(id) });
    expect(d.waterfall.map((m) => m.id)).toEqual(['open/llama-70b', 'third/llama-70b', 'other/llama-70b']);
    const closed = r.route(ask('hi', { model: 'open/llama-70b' }));
    expect(closed.waterfall.map((m) => m.id)).toEqual(['open/llama-70b', 'other/llama-70b', 'third/llama-70b']);
  });

  it('gives a routed decision the base’s keys, then its own, in one fixed order', () => {
    const keys = Object.keys(router().route(ask('hi')));
    expect(keys).toEqual([
      'lane', 'taskFamily', 'complexity', 'notApplied', 'vector', 'features', 'promptTokens', 'featureCount', 'workflowType', 'workflowStated', 'stickyKey',
      'model', 'waterfall', 'tier', 'source', 'candidates', 'difficulty', 'qualityFallback', 'cascade', 'learned',
    ]);
  });

  it('gives a pinned decision every key of the decision base, in the order of a routed decision', () => {
    const r = router();
    const routed = Object.keys(r.route(ask('hi')));
    const baseKeys = routed.slice(0, routed.indexOf('model'));
    expect(baseKeys.length).toBeGreaterThan(5);
    expect(Object.keys(r.route(ask('hi', { model: 'mini' })))).toEqual([...baseKeys, 'model', 'waterfall', 'tier', 'source', 'candidates']);
  });

  it('keeps the order of the closed siblings before and after an open one, and of the open ones', () => {
    const llama = catalog.get('other/llama-70b')!;
    const family = [...catalog.list(), ...['third', 'fourth', 'fifth'].map((provider) => ({ ...llama, id: `${provider}/llama-70b`, provider }))];
    const r = createRouter({ catalog: createCatalog(family) });
    const open = new Set(['third/llama-70b', 'fifth/llama-70b']);
    const d = r.route(ask('hi', { model: 'open/llama-70b' }), { breakerOpen: (id) => open.has(id) });
    expect(d.waterfall.map((m) => m.id)).toEqual(['open/llama-70b', 'other/llama-70b', 'fourth/llama-70b', 'third/llama-70b', 'fifth/llama-70b']);
  });

  it('refuses a paid model to an organisation restricted to free models (403), and keeps fallback free', () => {
    const r = router();
    try {
      r.route(ask('hi', { model: 'acme/opus' }), { orgPolicy: { freeModelsOnly: true } });
      throw new Error('expected a 403');
    } catch (error) {
      expect(error).toMatchObject({ status: 403, type: 'authorization_error', code: 'forbidden' });
    }
    const free = r.route(ask('hi', { model: 'open/llama-70b' }), { orgPolicy: { freeModelsOnly: true } });
    expect(free.waterfall.every((m) => m.free || m.openWeight)).toBe(true);
    const forced = () => r.route(ask('hi', { routingOverride: { forceModel: 'acme/mini' } }), { orgPolicy: { freeModelsOnly: true } });
    expect(forced).toThrowError(expect.objectContaining({ status: 403, code: 'forbidden' }));
  });

  it('reports the selection knobs an explicit model leaves nothing to choose for as not applied', () => {
    const d = router().route(
      ask('hi', { model: 'acme/mid', routingHints: { mode: 'quality', maxTier: 3, preferenceDial: 0.2 }, routingOverride: { forceTier: 'T1' } }),
    );
    expect(d.model.id).toBe('acme/mid');
    expect(d.notApplied).toEqual(expect.arrayContaining(['routing_hints.mode', 'routing_hints.max_tier', 'routing_hints.preference_dial', 'routing_override.force_tier']));
    expect(router().route(ask('hi', { model: 'acme/mid' })).notApplied).toEqual([]);
    // Through an alias the same knobs do choose: nothing is reported.
    expect(router().route(ask('hi', { routingHints: { mode: 'quality', maxTier: 3 } })).notApplied).toEqual([]);
  });
});

describe('aliases', () => {
  it.each([
    ['svc/auto-quality', 'T1'],
    ['svc/auto-value', 'T2'],
    ['svc/auto-speed', 'T3'],
  ])('%s draws only from %s', (model, tier) => {
    const d = router().route(ask(hard, { model }));
    expect(d.waterfall.every((m) => m.tier === tier)).toBe(true);
    expect(d.source).toBe('Router');
  });

  it('never draws a model served only when named (routable: false), which a pin still reaches', () => {
    const withAudio = catalog.withOverrides([
      { id: 'acme/voice', provider: 'acme', upstreamId: 'voice', family: 'voice', kind: 'chat', tier: 'T3', contextWindow: 128_000, maxOutputTokens: 16_000, inputPricePerMTok: 0.01, outputPricePerMTok: 0.01, capabilities: ['tools', 'json', 'audio'], free: false, openWeight: false, created: 1_700_000_000, qualityPrior: 0.99, routable: false },
    ]);
    const r = createRouter({ catalog: withAudio });
    for (const model of ['svc/auto', 'svc/auto-speed']) expect(r.route(ask('hi', { model })).waterfall.map((m) => m.id)).not.toContain('acme/voice');
    expect(r.route(ask('hi', { model: 'acme/voice' })).model.id).toBe('acme/voice');
  });

  it('svc/auto-safety draws from safety-critical models', () => {
    expect(router().route(ask('hi', { model: 'svc/auto-safety' })).waterfall.map((m) => m.id)).toEqual(['acme/opus']);
  });

  it('auto and svc/auto span every tier: cheap for trivial, premium for expert', () => {
    const r = router();
    const easy = r.route(ask('hi', { model: 'auto' }));
    const expert = r.route(ask(hard, { model: 'svc/auto' }));
    expect(easy.tier).toBe('T3');
    expect(easy.lane).toBe('turbo');
    expect(expert.tier).toBe('T1');
    expect(expert).toMatchObject({ lane: 'smart', complexity: 'expert' });
    expect(expert.candidates[0]).toMatchObject({ id: expert.model.id, sticky: false, overBudget: false });
    expect(expert.candidates[0]!.quality).toBeGreaterThan(0.8);
  });
});

describe('routing_override', () => {
  it('force_model pins after routing and keeps the classification', () => {
    const d = router().route(ask(hard, { routingOverride: { forceModel: 'fast/tiny' } }));
    expect(d).toMatchObject({ source: 'Override', complexity: 'expert' });
    expect(d.model.id).toBe('fast/tiny');
    rejects(() => router().route(ask('hi', { routingOverride: { forceModel: 'x/y' } })), 'routing_override.force_model', 'model_not_found');
  });

  it.each(['T2', 'tier-2', 'tier2', 't2'])('force_tier %s keeps every candidate in T2', (forceTier) => {
    const d = router().route(ask(hard, { routingOverride: { forceTier: forceTier as 'T2' } }));
    expect(d.tier).toBe('T2');
    expect(d.waterfall.every((m) => m.tier === 'T2')).toBe(true);
  });

  it('force_tier beats the alias pool', () => {
    expect(router().route(ask('hi', { model: 'svc/auto-speed', routingOverride: { forceTier: 'T1' } })).tier).toBe('T1');
  });

  it('rejects a bad force_tier and force_lane', () => {
    rejects(() => router().route(ask('hi', { routingOverride: { forceTier: 'T9' as 'T1' } })), 'routing_override.force_tier');
    rejects(() => router().route(ask('hi', { routingOverride: { forceLane: 'slow' as 'smart' } })), 'routing_override.force_lane');
  });

  it('force_lane sets the lane, even for pinned models', () => {
    expect(router().route(ask('hi', { routingOverride: { forceLane: 'smart' } })).lane).toBe('smart');
    expect(router().route(ask(hard, { model: 'acme/mid', routingOverride: { forceLane: 'smart' } })).lane).toBe('smart');
  });

  it('reports force_provider as not applied', () => {
    expect(router().route(ask('hi', { routingOverride: { forceProvider: 'acme' } })).notApplied).toEqual(['routing_override.force_provider']);
  });
});

describe('routing_hints and modes', () => {
  const standard = 'Write a python function that returns the n-th Fibonacci number iteratively.';

  it('quality mode buys a better model than fast and cost_optimized', () => {
    const r = router();
    const q = r.route(ask(standard, { routingHints: { mode: 'quality' } })).model;
    const f = r.route(ask(standard, { routingHints: { mode: 'fast' } })).model;
    const c = r.route(ask(standard, { routingHints: { mode: 'cost_optimized' } })).model;
    expect(q.qualityPrior).toBeGreaterThan(f.qualityPrior);
    expect(c.outputPricePerMTok).toBeLessThan(q.outputPricePerMTok);
  });

  it('free_models_only mode and the org policy keep only free or open-weight models', () => {
    const r = router();
    const byMode = r.route(ask(hard, { routingHints: { mode: 'free_models_only' } }));
    const byOrg = r.route(ask(hard), { orgPolicy: { freeModelsOnly: true } });
    for (const d of [byMode, byOrg]) expect(d.waterfall.every((m) => m.free || m.openWeight)).toBe(true);
  });

  it('clamps preference_dial: 7 acts as 1 and -3 as 0', () => {
    const r = router();
    const id = (dial: number) => r.route(ask(standard, { routingHints: { preferenceDial: dial } })).model.id;
    expect(id(7)).toBe(id(1));
    expect(id(-3)).toBe(id(0));
    expect(id(1)).not.toBe(id(0));
    rejects(() => id(Number.NaN), 'routing_hints.preference_dial');
  });

  it('prefer_latency and a tight max_latency_ms pick faster models', () => {
    const r = router();
    const table: Record<string, number> = { 'fast/tiny': 80, 'acme/mini': 150, 'acme/mid': 400, 'acme/sonnet': 1200, 'acme/opus': 2000 };
    const latencyMs = (id: string) => table[id] ?? 600;
    const base = r.route(ask(standard), { latencyMs });
    const quick = r.route(ask(standard, { routingHints: { preferLatency: true } }), { latencyMs });
    expect(latencyMs(quick.model.id)).toBeLessThan(latencyMs(base.model.id));
    const budget = r.route(ask(standard, { routingHints: { maxLatencyMs: 250 } }));
    expect(budget.lane).toBe('turbo');
    expect(budget.tier).toBe('T3');
  });

  it('max_tier caps spend: 2 excludes T1, 3 keeps only T3; bad values are rejected', () => {
    const r = router();
    expect(r.route(ask(hard, { routingHints: { maxTier: 2 } })).waterfall.every((m) => m.tier !== 'T1')).toBe(true);
    expect(r.route(ask(hard, { routingHints: { maxTier: 3 } })).tier).toBe('T3');
    rejects(() => r.route(ask(hard, { routingHints: { maxTier: 4 as 3 } })), 'routing_hints.max_tier');
  });

  it('task_complexity sets floor and ceiling and replaces the classifier', () => {
    const r = router();
    const expert = r.route(ask('hi', { routingHints: { taskComplexity: 'expert' } }));
    expect(expert).toMatchObject({ tier: 'T1', complexity: 'expert' });
    expect(r.route(ask(hard, { routingHints: { taskComplexity: 'trivial' } })).waterfall.every((m) => m.tier !== 'T1')).toBe(true);
    expect(r.route(ask('hi', { routingHints: { taskComplexity: 'complex' } })).waterfall.every((m) => m.tier !== 'T3')).toBe(true);
    rejects(() => r.route(ask('hi', { routingHints: { taskComplexity: 'huge' as 'expert' } })), 'routing_hints.task_complexity');
  });

  it('reasoning_effort high is premium, low is cheaper', () => {
    const r = router();
    const high = r.route(ask(standard, { reasoningEffort: 'high' }));
    const low = r.route(ask(standard, { reasoningEffort: 'low' }));
    expect(high.model.qualityPrior).toBeGreaterThan(low.model.qualityPrior);
    expect(high.complexity).toBe('complex');
  });

  it('service_tier batch biases to cost', () => {
    const r = router();
    const normal = r.route(ask(hard));
    const batch = r.route(ask(hard, { serviceTier: 'batch' }));
    // Prices weigh linearly: batch pushes the dearest model down the list (a 5x gap to a far weaker model can still lose).
    const at = (d: typeof normal) => d.candidates.findIndex((c) => c.id === 'acme/opus');
    expect(at(batch)).toBeGreaterThan(at(normal));
    expect(batch.model.outputPricePerMTok).toBeLessThanOrEqual(normal.model.outputPricePerMTok);
  });

  it('allow_free_fallback appends free models beyond the waterfall window', () => {
    const r = createRouter({ catalog, maxWaterfall: 2 });
    const plain = r.route(ask(hard, { routingHints: { mode: 'quality' } }));
    expect(plain.waterfall).toHaveLength(2);
    expect(plain.waterfall.some((m) => m.free)).toBe(false);
    const d = r.route(ask(hard, { routingHints: { mode: 'quality', allowFreeFallback: true } }));
    expect(d.waterfall.slice(0, 2)).toEqual(plain.waterfall);
    expect(d.waterfall.slice(2).map((m) => m.id).sort()).toEqual(['open/llama-70b', 'other/llama-70b']);
  });
});

describe('constraints', () => {
  it('filters by tools, vision and context window', () => {
    const r = router();
    expect(r.route(ask('hi', { tools: [{ name: 'f' }] })).waterfall.some((m) => m.id === 'fast/tiny')).toBe(false);
    const vision = r.route({ ...ask('x'), messages: [{ role: 'user', content: [{ type: 'image', url: 'https://i/x.png' }] }] });
    expect(vision.waterfall.map((m) => m.id)).toEqual(['acme/opus']);
    const huge = r.route(ask('word '.repeat(600_000)));
    expect(huge.waterfall.map((m) => m.id)).toEqual(['acme/sonnet']);
    rejects(() => r.route(ask('word '.repeat(6_000_000))), 'messages', 'context_length_exceeded');
  });

  it('skips open breakers and answers 503 when every candidate is open', () => {
    const r = router();
    const d = r.route(ask('hi'), { breakerOpen: (id) => id.startsWith('fast/') });
    expect(d.waterfall.some((m) => m.id === 'fast/tiny')).toBe(false);
    expect(() => r.route(ask('hi'), { breakerOpen: () => true })).toThrowError(expect.objectContaining({ status: 503 }));
  });
});

describe('sticky chains', () => {
  it('continues a conversation on its model unless chain_routing is mixed', () => {
    const sticky = createMemoryStickyRoutes();
    const r = createRouter({ catalog, state: { sticky } });
    sticky.set('c1', 'acme/mid');
    const next = r.route(ask('hi', { svc: { conversationId: 'c1' } }));
    expect(next).toMatchObject({ source: 'Sticky' });
    expect(next.model.id).toBe('acme/mid');
    expect(r.route(ask('hi', { svc: { conversationId: 'c1' }, routingHints: { chainRouting: 'mixed' } })).model.id).not.toBe('acme/mid');
    r.route(ask('hi', { svc: { conversationId: 'c2' } }));
    expect(sticky.get('c2')).toBeDefined();
  });
});

describe('sticky chains through the route context', () => {
  it('prefers the model the caller looked up, reports the key, and leaves the in-process routes alone', () => {
    const sticky = createMemoryStickyRoutes();
    const r = createRouter({ catalog, state: { sticky } });
    const d = r.route(ask('hi', { svc: { chainId: 'chain-9' } }), { stickyModel: 'acme/mini' });
    expect(d).toMatchObject({ source: 'Sticky', stickyKey: 'chain-9' });
    expect(d.model.id).toBe('acme/mini');
    expect(sticky.get('chain-9')).toBeUndefined();
  });

  it('has no sticky key for mixed chains or requests without one', () => {
    expect(router().route(ask('hi', { svc: { chainId: 'x' }, routingHints: { chainRouting: 'mixed' } })).stickyKey).toBeUndefined();
    expect(router().route(ask('hi')).stickyKey).toBeUndefined();
    expect(router().route(ask('hi', { svc: { chainId: 'a', conversationId: 'b' } })).stickyKey).toBe('a');
  });

  it('ignores a sticky model that cannot serve the request', () => {
    const d = router().route(ask('hi', { tools: [{ name: 'f', parameters: {} }] }), { stickyModel: 'fast/tiny' });
    expect(d.model.id).not.toBe('fast/tiny');
    expect(d.source).toBe('Router');
  });
});

describe('workflow_type', () => {
  const tool = { name: 'lookup', parameters: {} };

  it('keeps a stated workflow', () => {
    expect(router().route(ask('hi', { svc: { workflowType: 'creative' } }))).toMatchObject({ workflowType: 'creative', workflowStated: true });
  });

  it.each<[string, ChatRequest, string]>([
    ['voice', ask('what time is it', { svc: { voiceMode: 'true' } }), 'voice_simple'],
    ['voice with a hard question', ask(hard, { svc: { voiceMode: 'true' } }), 'voice_complex'],
    ['tools in a chain', ask('find the order', { tools: [tool], svc: { chainId: 'c' } }), 'long_horizon_autonomous'],
    ['tools', ask('find the order', { tools: [tool] }), 'execution_task'],
    ['many turns', { ...ask('and then?'), messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'and then?' }] }, 'multi_step_conversational'],
    ['one question', ask('What is the capital of France?'), 'single_turn'],
  ])('classifies %s', (_name, request, expected) => {
    expect(router().route(request)).toMatchObject({ workflowType: expected, workflowStated: false });
  });

  it('does not treat voice_mode "false" as voice', () => {
    expect(router().route(ask('hi', { svc: { voiceMode: 'false' } })).workflowType).not.toMatch(/^voice/);
  });

  it('routes voice to the turbo lane and a faster model than the same request without voice', () => {
    const plain = router().route(ask('Summarise the plot of Hamlet in two sentences.'));
    const voice = router().route(ask('Summarise the plot of Hamlet in two sentences.', { svc: { voiceMode: 'true' } }));
    expect(voice.lane).toBe('turbo');
    const rank = (t: string) => Number(t.slice(1));
    expect(rank(voice.tier)).toBeGreaterThanOrEqual(rank(plain.tier));
    // Voice weighs latency up: the fastest model gains on the slowest.
    expect(gap(voice, 'fast/tiny', 'acme/opus')).toBeGreaterThan(gap(plain, 'fast/tiny', 'acme/opus'));
  });

  it('leans to quality for plan-then-act planning', () => {
    const q = 'Outline a migration plan for moving a monolith to services.';
    const preact = router().route(ask(q, { svc: { planningMode: 'preact' } }));
    const planact = router().route(ask(q, { svc: { planningMode: 'planact' } }));
    expect(planact.candidates[0]!.quality).toBeGreaterThanOrEqual(preact.candidates[0]!.quality);
    expect(gap(planact, 'acme/opus', 'fast/tiny')).toBeGreaterThan(gap(preact, 'acme/opus', 'fast/tiny'));
  });
});

describe('the remaining hints', () => {
  const standard = 'Write a python function that returns the n-th Fibonacci number iteratively.';

  it('balanced mode is the auto preset', () => {
    const r = router();
    expect(r.route(ask(standard, { routingHints: { mode: 'balanced' } })).model.id).toBe(r.route(ask(standard)).model.id);
  });

  it('prefer_quality buys at least the quality of the plain request', () => {
    const r = router();
    const plain = r.route(ask(standard));
    const preferred = r.route(ask(standard, { routingHints: { preferQuality: true } }));
    expect(preferred.candidates[0]!.quality).toBeGreaterThanOrEqual(plain.candidates[0]!.quality);
    // The quality weight really rose: the best model gains on the weakest.
    expect(gap(preferred, 'acme/opus', 'fast/tiny')).toBeGreaterThan(gap(plain, 'acme/opus', 'fast/tiny'));
  });

  it('max_cost_per_token is advisory: reported as not applied, never a filter', () => {
    const d = router().route(ask(hard, { routingHints: { maxCostPerToken: 1e-12 } }));
    expect(d.notApplied).toContain('routing_hints.max_cost_per_token');
    expect(d.waterfall.length).toBeGreaterThan(0);
  });

  it('required_capabilities is advisory, not a hard filter', () => {
    const d = router().route(ask('hi', { routingHints: { requiredCapabilities: ['teleportation'] } }));
    expect(d.waterfall.length).toBeGreaterThan(0);
  });

  it('aliases are case-insensitive', () => {
    expect(router().route(ask(hard, { model: 'SVC/Auto-Speed' })).tier).toBe('T3');
  });

  it.each<[string, Partial<ChatRequest>, string]>([
    ['an unknown mode', { routingHints: { mode: 'warp' as never } }, 'routing_hints.mode'],
    ['an unknown task_complexity', { routingHints: { taskComplexity: 'hard' as never } }, 'routing_hints.task_complexity'],
    ['a zero max_latency_ms', { routingHints: { maxLatencyMs: 0 } }, 'routing_hints.max_latency_ms'],
    ['max_tier 0', { routingHints: { maxTier: 0 as never } }, 'routing_hints.max_tier'],
    ['an unknown force_lane', { routingOverride: { forceLane: 'fast' as never } }, 'routing_override.force_lane'],
  ])('rejects %s with 400 naming it', (_name, patch, param) => {
    rejects(() => router().route(ask('hi', patch)), param);
  });
});

describe('feature sets by intelligence mode', () => {
  it('routes on the structural features without reading the text (proxy), on the text features otherwise', () => {
    const r = router();
    const full = r.route(ask(hard));
    const structural = r.route(ask(hard), { textFeatures: false });
    expect(full.featureCount).toBeGreaterThan(structural.featureCount);
    // Document 1's table: 8 (proxy), 392 (cache), 396 (full: the memory features too).
    expect(structural.featureCount).toBe(8);
    expect(full.featureCount).toBe(392);
    const withMemory = r.route(ask(hard), { memory: { recalled: 3, topScore: 0.8, chars: 240, sameConversation: true } });
    expect(withMemory.featureCount).toBe(396);
    expect(Array.from(withMemory.vector.slice(21, 25))).toEqual([0.3, 0.8, Math.log1p(240) / 10, 1]);
    expect(Array.from(full.vector.slice(21, 25))).toEqual([0, 0, 0, 0]);
    // Without the text the hard prompt's signals are gone: its class can only come from its length.
    expect(full.complexity).toBe('expert');
    expect(structural.complexity).not.toBe('expert');
  });
});
