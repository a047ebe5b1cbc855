import type { ChatRequest } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import type { RouteOutcome } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { ChainLimiter } from './chain-limits.js';
import type { GatewayDeps } from '../gateway.js';
import { createKvStickyStore } from './sticky-routes.js';
import { catalog, llama, request, scripted, setup } from '../test/gateway-harness.js';

const everyone = () => ['groq', 'together', 'anthropic', 'openai'].map((id) => scripted(id, () => 'ok'));
const hard =
  'Design a distributed, strongly consistent key-value store on top of Raft. Explain leader election, log compaction and membership changes, analyze the failure modes under network partitions, and justify every trade-off against a leaderless design.';
const ask = (content: string, patch: Partial<ChatRequest> = {}) => request({ model: 'svc/auto', messages: [{ role: 'user', content }], ...patch });

async function served(gateway: ReturnType<typeof setup>['gateway'], context: ReturnType<typeof setup>['context'], body: ChatRequest) {
  const response = await gateway.chat(body, context());
  if (response.kind !== 'json') throw new Error('expected json');
  return response;
}

describe('routing in the pipeline', () => {
  it('routes aliases with @svc/router and reports the real decision in headers, metadata and the log', async () => {
    const { gateway, decisions, context } = setup(everyone());
    const response = await served(gateway, context, ask(hard, { routingOverride: { forceProvider: 'openai' }, routingHints: { maxTier: 2 } }));
    const model = catalog.get(response.headers['x-svc-model']!)!;
    expect(model.tier).not.toBe('T1');
    expect(response.headers['x-svc-tier-used']).toBe(model.tier);
    expect(response.headers['x-svc-lane-used']).toBe('smart');
    expect(response.metadata).toMatchObject({
      decision_source: 'Router',
      tier: model.tier,
      task_family: expect.any(String),
      task_complexity: expect.stringMatching(/complex|expert/),
      not_applied: ['routing_override.force_provider'],
    });
    expect(response.metadata.routing_decision).toContain('smart lane via Router');
    const logged = decisions[0]!;
    expect(logged).toMatchObject({ source: 'Router', model: model.id, tier: model.tier, taskFamily: response.metadata.task_family });
    expect(logged.details).toMatchObject({ constraints: { maxTier: 2, forceProvider: 'openai' }, notApplied: ['routing_override.force_provider'] });
    expect(logged.candidates[0]).toMatchObject({ id: model.id, score: expect.any(Number), pSuccess: expect.any(Number) });
  });

  it('logs a pinned decision with its waterfall and the turbo lane', async () => {
    const { gateway, decisions, context } = setup(everyone());
    const response = await served(gateway, context, request({}));
    expect(response.metadata).toMatchObject({ decision_source: 'Pinned', lane: 'turbo', model: llama.id });
    expect(decisions[0]!.candidates[0]).toEqual({ id: llama.id, score: null });
  });
});

describe('feature vector size by intelligence mode', () => {
  it('decides on 8 features in proxy, 392 in cache and 396 in full mode, where memory is recalled before routing', async () => {
    const recalled = [{ id: 'm1', orgId: 'org_1', subject: 'k:key_1', conversationId: 'conv-1', role: 'user', slot: null, text: 'Our cluster runs Raft with five nodes.', entities: [], createdAt: new Date(), updatedAt: new Date(), score: 0.7 }];
    const asked: string[] = [];
    const memory = {
      remember: () => 1,
      recall: async (_scope: unknown, query: string) => {
        asked.push(query);
        return recalled;
      },
    };
    const { gateway, decisions, context } = setup(everyone(), undefined, { memory });
    for (const mode of ['proxy', 'cache', 'full'] as const) {
      await served(gateway, () => context(mode), ask(hard, { svc: { conversationId: 'conv-1' } }));
    }
    expect(decisions.map((d) => d.details.featureCount)).toEqual([8, 392, 396]);
    expect(asked).toEqual([hard]); // only full mode recalls
  });
});

describe('sticky chains', () => {
  it('continues a conversation on the model that served it, on every instance sharing the kv', async () => {
    const kv = createMemoryKv();
    const sticky = () => ({ sticky: createKvStickyStore({ kv }) });
    const first = setup(everyone(), undefined, sticky());
    const second = setup(everyone(), undefined, sticky());
    const opening = await served(first.gateway, first.context, ask(hard, { svc: { conversationId: 'conv-1' } }));
    const plain = await served(second.gateway, second.context, ask('hi'));
    expect(plain.headers['x-svc-model']).not.toBe(opening.headers['x-svc-model']);
    await new Promise((resolve) => setImmediate(resolve));
    const next = await served(second.gateway, second.context, ask('hi', { svc: { conversationId: 'conv-1' } }));
    expect(next.headers['x-svc-model']).toBe(opening.headers['x-svc-model']);
    expect(next.metadata.decision_source).toBe('Sticky');
    const mixed = await served(second.gateway, second.context, ask('hi', { svc: { conversationId: 'conv-1' }, routingHints: { chainRouting: 'mixed' } }));
    expect(mixed.metadata.decision_source).toBe('Router');
  });

  it('keeps tenants apart: the same chain id in another organisation is not sticky', async () => {
    const kv = createMemoryKv();
    const store = createKvStickyStore({ kv });
    store.set('org_other', 'conv-2', 'openai/gpt-4o');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.get('org_1', 'conv-2')).toBeUndefined();
    expect(await store.get('org_other', 'conv-2')).toBe('openai/gpt-4o');
  });

  it('routes without stickiness when the store fails', async () => {
    const kv = createMemoryKv();
    await kv.close();
    const errors: unknown[] = [];
    const { gateway, context } = setup(everyone(), undefined, { sticky: createKvStickyStore({ kv, onError: (e) => errors.push(e) }) });
    const response = await served(gateway, context, ask('hi', { svc: { conversationId: 'c' } }));
    expect(response.metadata.decision_source).toBe('Router');
  });
});

describe('long_horizon_autonomous chain limits', () => {
  const agent = (svc: NonNullable<ChatRequest['svc']>) => ask('next step', { svc: { chainId: 'chain-a', ...svc } });
  const withChains = (extra: Partial<GatewayDeps> = {}) => {
    const kv = createMemoryKv();
    return { kv, ...setup(everyone(), undefined, { chains: new ChainLimiter({ kv, defaults: { maxSteps: 3, timeoutSecs: 0 } }), ...extra }) };
  };

  it('answers 409 chain_step_limit_exceeded once max_chain_steps is used up', async () => {
    const { gateway, context } = withChains();
    const body = agent({ workflowType: 'long_horizon_autonomous', maxChainSteps: 2 });
    await served(gateway, context, body);
    await served(gateway, context, body);
    await expect(gateway.chat(body, context())).rejects.toMatchObject({ status: 409, code: 'chain_step_limit_exceeded', param: 'svc.max_chain_steps' });
    // Another chain is not affected.
    await served(gateway, context, { ...body, svc: { ...body.svc, chainId: 'chain-b' } });
  });

  it('applies the defaults only to a stated long-horizon workflow', async () => {
    const { gateway, context } = withChains();
    const stated = agent({ workflowType: 'long_horizon_autonomous' });
    for (let i = 0; i < 3; i++) await served(gateway, context, stated);
    await expect(gateway.chat(stated, context())).rejects.toMatchObject({ status: 409, code: 'chain_step_limit_exceeded' });
    const classified = ask('next', { tools: [{ name: 'lookup', parameters: {} }], svc: { chainId: 'chain-c' } });
    for (let i = 0; i < 5; i++) expect((await served(gateway, context, classified)).metadata.workflow_type).toBe('long_horizon_autonomous');
  });

  it('ignores the limits for other workflows', async () => {
    const { gateway, context } = withChains();
    const body = agent({ workflowType: 'single_turn', maxChainSteps: 1 });
    for (let i = 0; i < 3; i++) await served(gateway, context, body);
  });

  it('answers 409 chain_timeout_exceeded once the chain is older than chain_timeout_secs', async () => {
    const { gateway, context, kv } = withChains();
    const body = agent({ workflowType: 'long_horizon_autonomous', chainTimeoutSecs: 60 });
    await served(gateway, context, body);
    await kv.set('svc:chain:org_1:chain-a:started', String(Date.now() - 61_000));
    await expect(gateway.chat(body, context())).rejects.toMatchObject({ status: 409, code: 'chain_timeout_exceeded', param: 'svc.chain_timeout_secs' });
  });
});

describe('reliability_level', () => {
  const flaky = () => [scripted('groq', () => 'overloaded'), scripted('together', (call) => (call === 0 ? 'overloaded' : 'ok'))];

  it('standard keeps the deployment settings (no retry here)', async () => {
    const { gateway, context } = setup(flaky());
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 502 });
  });

  it('high retries the last candidate once more', async () => {
    const { gateway, context } = setup(flaky());
    const response = await served(gateway, context, request({ svc: { reliabilityLevel: 'high' } }));
    expect(response.result.choices[0]!.message.content).toBe('from together');
  });
});

describe('router feedback', () => {
  it('teaches the router the outcome, failed candidates included', async () => {
    const outcomes: RouteOutcome[] = [];
    const providers = [scripted('groq', () => 'overloaded'), scripted('together', () => 'ok')];
    const { gateway, context } = setup(providers, undefined, { feedback: { record: (o) => outcomes.push(o) } });
    await served(gateway, context, request({}));
    expect(outcomes.map((o) => [o.modelId?.split('/')[0], o.success])).toEqual([
      ['groq', false],
      ['together', true],
    ]);
    expect(outcomes[1]!.completionTokens).toBe(5);
  });

  it('teaches nothing from a caller fault', async () => {
    const outcomes: RouteOutcome[] = [];
    const { gateway, context } = setup([scripted('groq', () => 'invalid_request')], undefined, { feedback: { record: (o) => outcomes.push(o) } });
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 400 });
    expect(outcomes).toEqual([]);
  });
});

describe('enable_speculation', () => {
  it('reports speculation as not applied and the header as 0, never a fake acceptance', async () => {
    const { gateway, context } = setup(everyone());
    const response = await served(gateway, context, ask('hi', { svc: { enableSpeculation: true } }));
    expect(response.headers['x-svc-speculation-accepted']).toBe('0');
    expect(response.metadata.not_applied).toEqual(['svc.enable_speculation']);
  });
});

describe('BYOK providers', () => {
  it('serves with the organisation’s own provider first and attributes the answer to byok', async () => {
    const platform = scripted('groq', () => 'ok');
    const own = scripted('groq', () => 'ok');
    const { gateway, context } = setup([platform], undefined, { byok: { forOrg: (orgId) => (orgId === 'org_1' ? { get: (id) => (id === 'groq' ? own : undefined) } : undefined) } });
    const response = await served(gateway, context, request({}));
    expect([own.calls(), platform.calls()]).toEqual([1, 0]);
    expect(response.metadata.cost_attribution).toBe('byok');
  });

  it('stays on the platform keys (svc) for providers the organisation has no key for', async () => {
    const platform = scripted('groq', () => 'ok');
    const { gateway, context } = setup([platform], undefined, { byok: { forOrg: async () => ({ get: () => undefined }) } });
    const response = await served(gateway, context, request({}));
    expect(platform.calls()).toBe(1);
    expect(response.metadata.cost_attribution).toBe('svc');
  });
});

describe('BYOK and the shared breakers', () => {
  it('never counts a fault of an organisation’s own key against the model’s breaker', async () => {
    const { CircuitBreakers } = await import('@svc/resilience');
    const breakers = new CircuitBreakers({ kv: createMemoryKv(), consecutiveFailures: 1 });
    const own = scripted('groq', () => 'rate_limit');
    const platform = scripted('groq', () => 'ok');
    const { gateway, context } = setup([platform], breakers, { byok: { forOrg: () => ({ get: (id) => (id === 'groq' ? own : undefined) }) } });
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 429 });
    expect((await breakers.status(llama.id)).state).toBe('closed');
  });
});
