import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { type WireRequest, upstreamWires } from '../test/upstream-wires.js';
import { effortForBudget, maxTokensWithThinking } from './thinking-budget.js';

const answer = { reasoning: [], text: ['ok'], refusal: [], calls: [], finish: 'stop', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, interleave: [] } as const;

/** What the adapter `name` sent for `model` when asked to think with `budget` inside `maxTokens`. */
async function sentBody(name: string, model: string, thinking: Pick<ProviderChatRequest, 'maxTokens' | 'reasoning' | 'reasoningEffort'>): Promise<Record<string, unknown>> {
  const sent: WireRequest[] = [];
  await upstreamWires.find((wire) => wire.name === name)!.provider(answer, sent).chat({ model, messages: [{ role: 'user', content: 'Think.' }], stream: false, n: 1, includeUsage: false, ...thinking });
  return sent[0]!.body as Record<string, unknown>;
}

// Anthropic's `thinking.budget_tokens: 4096` with `max_tokens: 8000`, as /v1/messages decodes it.
const anthropicClient = { maxTokens: 8000, reasoning: { maxTokens: 4096 } };

describe('a thinking budget maps to each provider without shrinking the client output limit', () => {
  it('OpenAI reasoning models: the whole limit as max_completion_tokens, the budget as reasoning_effort', async () => {
    const body = await sentBody('openai', 'o4-mini', anthropicClient);
    expect(body).toMatchObject({ max_completion_tokens: 8000, reasoning_effort: 'medium' });
    expect(body.max_tokens).toBeUndefined();
    // An explicit effort wins over the budget's.
    expect(await sentBody('openai', 'o4-mini', { ...anthropicClient, reasoningEffort: 'high' })).toMatchObject({ reasoning_effort: 'high' });
  });

  it.each(['anthropic', 'vertex (Claude)'])('%s: the limit as max_tokens, the budget as thinking.budget_tokens', async (name) => {
    expect(await sentBody(name, 'claude-sonnet-4-5', anthropicClient)).toMatchObject({ max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4096 } });
    // A budget that does not fit (an OpenAI client's high effort on 1000 tokens) goes on top: the visible answer keeps its 1000.
    expect(await sentBody(name, 'claude-sonnet-4-5', { maxTokens: 1000, reasoningEffort: 'high' })).toMatchObject({ max_tokens: 17_384, thinking: { budget_tokens: 16_384 } });
  });

  it('Bedrock (Claude): the limit as inferenceConfig.maxTokens, the budget in additionalModelRequestFields', async () => {
    expect(await sentBody('bedrock', 'anthropic.claude-sonnet-4-5-20250929-v1:0', anthropicClient)).toMatchObject({
      inferenceConfig: { maxTokens: 8000 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 } },
    });
  });

  it('Gemini: the limit as maxOutputTokens (it counts thoughts too), the budget as thinkingBudget', async () => {
    expect(await sentBody('gemini', 'gemini-2.5-flash', anthropicClient)).toMatchObject({ generationConfig: { maxOutputTokens: 8000, thinkingConfig: { thinkingBudget: 4096 } } });
  });

  it('the rules themselves', () => {
    expect(maxTokensWithThinking(8000, 4096, 4096)).toBe(8000);
    expect(maxTokensWithThinking(4096, 4096, 4096)).toBe(8192);
    expect(maxTokensWithThinking(undefined, 2048, 4096)).toBe(6144);
    expect([1024, 2048, 2049, 8192, 8193, 64_000].map(effortForBudget)).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
  });
});
