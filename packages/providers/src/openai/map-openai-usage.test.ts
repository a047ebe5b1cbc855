import { describe, expect, it } from 'vitest';
import { mapOpenAIUsage } from './map-openai-usage.js';

describe('prompt-cache reads a provider reports by itself', () => {
  it("OpenAI's (and Azure's, Groq's, xAI's) prompt_tokens_details.cached_tokens", () => {
    expect(mapOpenAIUsage({ prompt_tokens: 2048, completion_tokens: 10, total_tokens: 2058, prompt_tokens_details: { cached_tokens: 1920 } })).toEqual({
      promptTokens: 2048,
      completionTokens: 10,
      totalTokens: 2058,
      cachedPromptTokens: 1920,
    });
  });

  it("DeepSeek's prompt_cache_hit_tokens", () => {
    expect(mapOpenAIUsage({ prompt_tokens: 1500, completion_tokens: 5, total_tokens: 1505, prompt_cache_hit_tokens: 1280 })).toMatchObject({ cachedPromptTokens: 1280 });
  });

  it('nothing when nothing was cached', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 12, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 0 } })).toEqual({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  });
});
