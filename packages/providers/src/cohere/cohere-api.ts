import { ProviderError } from '@svc/core';
import * as v from 'valibot';

/*
 * Minimal schemas of the Cohere v2 chat answer (POST /v2/chat): only the fields the adapter
 * reads. Citations, logprobs and `debug` events are skipped.
 */

const usageSchema = v.object({
  billed_units: v.nullish(v.object({ input_tokens: v.nullish(v.number()), output_tokens: v.nullish(v.number()) })),
  tokens: v.nullish(v.object({ input_tokens: v.nullish(v.number()), output_tokens: v.nullish(v.number()) })),
});

export type CohereUsage = v.InferOutput<typeof usageSchema>;

const toolCallSchema = v.object({
  id: v.nullish(v.string()),
  function: v.nullish(v.object({ name: v.nullish(v.string()), arguments: v.nullish(v.string()) })),
});

/** A content block: `text`, or `thinking` from the reasoning models. */
const contentBlockSchema = v.object({ type: v.string(), text: v.nullish(v.string()), thinking: v.nullish(v.string()) });

export const cohereChatResponseSchema = v.object({
  id: v.nullish(v.string()),
  finish_reason: v.nullish(v.string()),
  message: v.object({
    content: v.nullish(v.array(contentBlockSchema)),
    tool_plan: v.nullish(v.string()),
    tool_calls: v.nullish(v.array(toolCallSchema)),
  }),
  usage: v.nullish(usageSchema),
});

/** Every stream event's data; `type` says which fields are set. */
export const cohereStreamEventSchema = v.object({
  type: v.nullish(v.string()),
  id: v.nullish(v.string()),
  index: v.nullish(v.number()),
  delta: v.nullish(
    v.object({
      message: v.nullish(
        v.object({
          content: v.nullish(v.object({ type: v.nullish(v.string()), text: v.nullish(v.string()), thinking: v.nullish(v.string()) })),
          tool_plan: v.nullish(v.string()),
          tool_calls: v.nullish(toolCallSchema),
        }),
      ),
      finish_reason: v.nullish(v.string()),
      /** Set on `message-end` when the generation failed. */
      error: v.nullish(v.string()),
      usage: v.nullish(usageSchema),
    }),
  ),
  /** An `error` event's text. */
  message: v.nullish(v.string()),
});

export type CohereStreamEvent = v.InferOutput<typeof cohereStreamEventSchema>;

/** Validates a wire value, failing as a `server` error that names what was malformed. */
export function parseCohereWire<const TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, what: string): v.InferOutput<TSchema> {
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return parsed.output;
  throw new ProviderError({ provider: 'cohere', kind: 'server', message: `cohere sent an unexpected ${what}: ${v.summarize(parsed.issues)}` });
}

/* What we send. Internal TypeScript types: we build these, nobody else does. */

export type CohereContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

export interface CohereToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type CohereMessage =
  | { role: 'system'; content: string | CohereContentPart[] }
  | { role: 'user'; content: string | CohereContentPart[] }
  | { role: 'assistant'; content?: string; tool_plan?: string; tool_calls?: CohereToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string | CohereContentPart[] };

export interface CohereTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface CohereChatRequestBody {
  model: string;
  messages: CohereMessage[];
  stream?: boolean;
  tools?: CohereTool[];
  tool_choice?: 'REQUIRED' | 'NONE';
  response_format?: { type: 'json_object'; json_schema?: Record<string, unknown> };
  max_tokens?: number;
  temperature?: number;
  p?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  stop_sequences?: string[];
  seed?: number;
}
