import * as v from 'valibot';

/*
 * Minimal schemas of the OpenAI chat-completions wire answer: only the fields the adapter reads.
 * valibot object schemas walk declared keys only, so keeping them minimal keeps the per-chunk
 * validation cost proportional to what we use, not to what the vendor sends.
 */

const usageSchema = v.object({
  prompt_tokens: v.number(),
  completion_tokens: v.number(),
  total_tokens: v.nullish(v.number()),
  prompt_tokens_details: v.nullish(v.object({ cached_tokens: v.nullish(v.number()), audio_tokens: v.nullish(v.number()) })),
  completion_tokens_details: v.nullish(v.object({ reasoning_tokens: v.nullish(v.number()) })),
  /** DeepSeek reports its prompt-cache hits here instead of in prompt_tokens_details. */
  prompt_cache_hit_tokens: v.nullish(v.number()),
});

export type OpenAIUsage = v.InferOutput<typeof usageSchema>;

const toolCallSchema = v.object({
  id: v.string(),
  function: v.object({ name: v.string(), arguments: v.nullish(v.string()) }),
});

export const openAIChatResponseSchema = v.object({
  id: v.nullish(v.string()),
  model: v.nullish(v.string()),
  created: v.nullish(v.number()),
  system_fingerprint: v.nullish(v.string()),
  choices: v.array(
    v.object({
      index: v.nullish(v.number()),
      message: v.object({
        content: v.nullish(v.string()),
        refusal: v.nullish(v.string()),
        tool_calls: v.nullish(v.array(toolCallSchema)),
        /** DeepSeek-style reasoning text. */
        reasoning_content: v.nullish(v.string()),
        /** OpenRouter/Groq-style reasoning text. */
        reasoning: v.nullish(v.string()),
      }),
      finish_reason: v.nullish(v.string()),
      logprobs: v.nullish(v.unknown()),
    }),
  ),
  usage: v.nullish(usageSchema),
});

export type OpenAIChatResponse = v.InferOutput<typeof openAIChatResponseSchema>;

const toolCallDeltaSchema = v.object({
  index: v.nullish(v.number()),
  id: v.nullish(v.string()),
  function: v.nullish(v.object({ name: v.nullish(v.string()), arguments: v.nullish(v.string()) })),
});

export const openAIChunkSchema = v.object({
  id: v.nullish(v.string()),
  model: v.nullish(v.string()),
  system_fingerprint: v.nullish(v.string()),
  choices: v.nullish(
    v.array(
      v.object({
        index: v.nullish(v.number()),
        delta: v.nullish(
          v.object({
            content: v.nullish(v.string()),
            refusal: v.nullish(v.string()),
            reasoning_content: v.nullish(v.string()),
            reasoning: v.nullish(v.string()),
            tool_calls: v.nullish(v.array(toolCallDeltaSchema)),
          }),
        ),
        finish_reason: v.nullish(v.string()),
      }),
    ),
  ),
  usage: v.nullish(usageSchema),
});

export type OpenAIChunk = v.InferOutput<typeof openAIChunkSchema>;

/* What we send. Internal TypeScript types: we build these, nobody else does. */

export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { file_data?: string; file_id?: string; filename?: string } };

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: 'system' | 'developer' | 'user'; content: string | OpenAIContentPart[]; name?: string }
  | {
      role: 'assistant';
      content: string | OpenAIContentPart[] | null;
      name?: string;
      tool_calls?: OpenAIToolCall[];
      refusal?: string;
    }
  | { role: 'tool'; content: string | OpenAIContentPart[]; tool_call_id: string };

export interface OpenAIChatRequestBody {
  model: string;
  messages: OpenAIMessage[];
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  n?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  stop?: string[];
  seed?: number;
  /** Mistral's name for `seed`. */
  random_seed?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  user?: string;
  reasoning_effort?: string;
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean } }[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  response_format?:
    | { type: 'text' | 'json_object' }
    | { type: 'json_schema'; json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean; description?: string } };
  service_tier?: string;
}
