import type { Usage } from '@svc/core';
import type { OpenAIUsage } from './chat-response-types.js';

/** Canonical usage -> OpenAI `usage`, with the detail objects only when the counts are known. */
export function encodeUsage(usage: Usage): OpenAIUsage {
  const out: OpenAIUsage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };
  if (usage.cachedPromptTokens !== undefined) out.prompt_tokens_details = { cached_tokens: usage.cachedPromptTokens };
  if (usage.reasoningTokens !== undefined) {
    out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return out;
}
