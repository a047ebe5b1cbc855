import { ProviderError } from '@svc/core';
import * as v from 'valibot';

/*
 * Wire shapes of the Bedrock Runtime Converse API (`POST /model/{modelId}/converse` and
 * `/converse-stream`). Requests are plain TypeScript types (we build them); responses and
 * stream event payloads are minimal loose valibot schemas of the fields the adapter reads.
 */

// ---- request ----

export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type BedrockDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

export interface BedrockImageBlock {
  image: { format: BedrockImageFormat; source: { bytes: string } };
}

export interface BedrockDocumentBlock {
  document: { format: BedrockDocumentFormat; name: string; source: { bytes: string } };
}

export interface BedrockToolUseBlock {
  toolUse: { toolUseId: string; name: string; input: Record<string, unknown> };
}

export interface BedrockToolResultBlock {
  toolResult: { toolUseId: string; content: Array<{ text: string } | BedrockImageBlock> };
}

/** A prompt-cache checkpoint: Bedrock caches everything before it (Claude and Nova models). */
export interface BedrockCachePoint {
  cachePoint: { type: 'default'; ttl?: '5m' | '1h' };
}

export type BedrockContentBlock = { text: string } | BedrockImageBlock | BedrockDocumentBlock | BedrockToolUseBlock | BedrockToolResultBlock | BedrockCachePoint;

export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

export interface BedrockTool {
  toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } };
}

export type BedrockToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

export interface BedrockInferenceConfig {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
}

export interface BedrockConverseBody {
  messages: BedrockMessage[];
  system?: Array<{ text: string } | BedrockCachePoint>;
  inferenceConfig?: BedrockInferenceConfig;
  toolConfig?: { tools: Array<BedrockTool | BedrockCachePoint>; toolChoice?: BedrockToolChoice };
  /** Model-specific fields Converse passes through, e.g. Claude's `thinking`. */
  additionalModelRequestFields?: Record<string, unknown>;
}

// ---- responses ----

const count = v.nullish(v.number());

export const bedrockUsageSchema = v.looseObject({
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  cacheReadInputTokens: count,
  cacheWriteInputTokens: count,
});
export type BedrockUsage = v.InferOutput<typeof bedrockUsageSchema>;

const contentBlockSchema = v.looseObject({
  text: v.optional(v.string()),
  toolUse: v.optional(v.looseObject({ toolUseId: v.string(), name: v.string(), input: v.optional(v.unknown()) })),
  reasoningContent: v.optional(v.looseObject({ reasoningText: v.optional(v.looseObject({ text: v.optional(v.string()) })) })),
});

export const converseResponseSchema = v.looseObject({
  output: v.looseObject({ message: v.nullish(v.looseObject({ content: v.array(contentBlockSchema) })) }),
  stopReason: v.nullish(v.string()),
  usage: v.nullish(bedrockUsageSchema),
});

// ---- stream event payloads (the `:event-type` header names the event) ----

export const contentBlockStartSchema = v.looseObject({
  contentBlockIndex: v.number(),
  start: v.nullish(v.looseObject({ toolUse: v.optional(v.looseObject({ toolUseId: v.string(), name: v.string() })) })),
});

export const contentBlockDeltaSchema = v.looseObject({
  contentBlockIndex: v.number(),
  delta: v.looseObject({
    text: v.optional(v.string()),
    toolUse: v.optional(v.looseObject({ input: v.optional(v.string()) })),
    reasoningContent: v.optional(v.looseObject({ text: v.optional(v.string()) })),
  }),
});

export const contentBlockStopSchema = v.looseObject({ contentBlockIndex: v.number() });

export const messageStopSchema = v.looseObject({ stopReason: v.nullish(v.string()) });

export const metadataSchema = v.looseObject({ usage: v.nullish(bedrockUsageSchema) });

/** The body of an error answer or an in-stream exception; AWS spells the field either way. */
export const bedrockErrorSchema = v.looseObject({ message: v.optional(v.string()), Message: v.optional(v.string()) });

/**
 * Validates an upstream payload against a wire schema. A mismatch is the upstream's fault
 * (kind `server`), so the waterfall may try elsewhere.
 */
export function parseBedrockWire<const TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, what: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  throw new ProviderError({ provider: 'bedrock', kind: 'server', message: `bedrock sent an unexpected ${what}: ${v.summarize(result.issues)}` });
}
