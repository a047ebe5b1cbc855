import type { Usage } from '@svc/core';
import type { OpenAIUsage } from './openai-api.js';

/** Wire usage -> canonical; optional counts appear only when the vendor reported them. */
export function mapOpenAIUsage(usage: OpenAIUsage): Usage {
  const mapped: Usage = {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  };
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  if (cached != null && cached > 0) mapped.cachedPromptTokens = cached;
  const audio = usage.prompt_tokens_details?.audio_tokens;
  if (audio != null && audio > 0) mapped.audioPromptTokens = audio;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null && reasoning > 0) mapped.reasoningTokens = reasoning;
  return mapped;
}
