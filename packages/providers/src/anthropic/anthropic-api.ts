import { ProviderError } from '@svc/core';
import * as v from 'valibot';

/*
 * Wire shapes of the Anthropic Messages API (`anthropic-version: 2023-06-01`).
 * Requests are plain TypeScript types (we build them); responses and stream events are minimal
 * valibot schemas: only the fields the adapter reads, loose so new upstream fields pass through.
 */

// ---- request ----

/** A prompt-cache breakpoint: Anthropic caches the prompt up to and including the block that carries it. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } | { type: 'file'; file_id: string };

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicDocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'text'; media_type: 'text/plain'; data: string } | { type: 'file'; file_id: string };
  title?: string;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicContentBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicMessagesBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: AnthropicTextBlock[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: { type: 'enabled'; budget_tokens: number };
  metadata?: { user_id: string };
}

// ---- responses ----

const count = v.nullish(v.number());

export const anthropicUsageSchema = v.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  /** The cache writes by lifetime (`cache_control.ttl`); one-hour writes cost more. */
  cache_creation: v.nullish(v.looseObject({ ephemeral_5m_input_tokens: count, ephemeral_1h_input_tokens: count })),
});
export type AnthropicUsage = v.InferOutput<typeof anthropicUsageSchema>;

const contentBlockSchema = v.looseObject({
  type: v.string(),
  text: v.optional(v.string()),
  id: v.optional(v.string()),
  name: v.optional(v.string()),
  input: v.optional(v.unknown()),
  thinking: v.optional(v.string()),
});

export const anthropicMessageSchema = v.looseObject({
  id: v.string(),
  model: v.string(),
  content: v.array(contentBlockSchema),
  stop_reason: v.nullish(v.string()),
  usage: anthropicUsageSchema,
});
export type AnthropicMessageResponse = v.InferOutput<typeof anthropicMessageSchema>;

export const anthropicErrorSchema = v.looseObject({
  type: v.string(),
  message: v.optional(v.string()),
});

// ---- stream events (the `type` of each `data:` equals its `event:` name) ----

export const messageStartSchema = v.looseObject({
  message: v.looseObject({ id: v.optional(v.string()), model: v.optional(v.string()), usage: v.optional(anthropicUsageSchema) }),
});

export const contentBlockStartSchema = v.looseObject({ index: v.number(), content_block: contentBlockSchema });

export const contentBlockDeltaSchema = v.looseObject({
  index: v.number(),
  delta: v.looseObject({
    type: v.string(),
    text: v.optional(v.string()),
    partial_json: v.optional(v.string()),
    thinking: v.optional(v.string()),
  }),
});

export const contentBlockStopSchema = v.looseObject({ index: v.number() });

export const messageDeltaSchema = v.looseObject({
  delta: v.looseObject({ stop_reason: v.nullish(v.string()) }),
  usage: v.nullish(anthropicUsageSchema),
});

export const errorEventSchema = v.looseObject({ error: anthropicErrorSchema });

/**
 * Validates an upstream payload against a wire schema. A mismatch is the upstream's fault
 * (kind `server`), so the waterfall may try elsewhere.
 */
export function parseAnthropicWire<const TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, what: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  throw new ProviderError({
    provider: 'anthropic',
    kind: 'server',
    message: `anthropic sent an unexpected ${what}: ${v.summarize(result.issues)}`,
  });
}
