import type { Usage } from '@svc/core';
import type { OpenAIUsage } from './chat-response-types.js';

/**
 * Canonical usage -> OpenAI `usage`, with the detail objects only when the counts are known:
 * prompt-cache reads as `cached_tokens`, writes as `cache_write_tokens` (OpenRouter's name).
 */
export function encodeUsage(usage: Usage): OpenAIUsage {
  const out: OpenAIUsage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };
  if (usage.cachedPromptTokens !== undefined || usage.cacheWriteTokens !== undefined) {
    out.prompt_tokens_details = { cached_tokens: usage.cachedPromptTokens ?? 0 };
    if (usage.cacheWriteTokens !== undefined) out.prompt_tokens_details.cache_write_tokens = usage.cacheWriteTokens;
  }
  if (usage.reasoningTokens !== undefined) {
    out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return out;
}
