/**
 * TypeScript shapes of what the gateway sends back on the OpenAI chat wire. Wire names on
 * purpose: these objects are serialised as they are.
 */
import type { FinishReason, SvcMetadata } from '@svc/core';

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /**
   * `cached_tokens`: prompt tokens read from the provider's prompt cache (OpenAI's field);
   * `cache_write_tokens`: prompt tokens written to it (OpenRouter's field), when the provider
   * reports writes (Anthropic, Bedrock). Both are included in `prompt_tokens`.
   */
  prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIAssistantMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  tool_calls?: OpenAIToolCall[];
  /** Reasoning text, under the name DeepSeek, vLLM and LiteLLM use. */
  reasoning_content?: string;
}

export interface OpenAIChatChoice {
  index: number;
  message: OpenAIAssistantMessage;
  finish_reason: FinishReason;
  logprobs: unknown;
}

/** The `chat.completion` object. */
export interface OpenAIChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  /** The upstream's, when it sent one. */
  system_fingerprint?: string;
  model: string;
  choices: OpenAIChatChoice[];
  usage?: OpenAIUsage;
  svc_metadata?: SvcMetadata;
}
