import type { ChatChoice, ChatResult, SvcMetadata } from '@svc/core';
import type { OpenAIChatChoice, OpenAIChatCompletion } from './chat-response-types.js';
import { encodeUsage } from './encode-usage.js';

export interface ChatCompletionMeta {
  /** Gateway completion id (`chatcmpl-...`). */
  id: string;
  /** Unix epoch seconds. */
  created: number;
  /** The model that answered, as reported to the caller. */
  model: string;
  svcMetadata?: SvcMetadata;
  /** Choices the caller asked for; fewer provider choices are padded with copies of the first. */
  n?: number;
}

export interface EncodedChatCompletion {
  body: OpenAIChatCompletion;
  /** How many choices were copies of the first one, added to reach `n` (0 when none): worth a log line. */
  replicatedChoices: number;
}

function encodeChoice(choice: ChatChoice, index: number): OpenAIChatChoice {
  const { message } = choice;
  const out: OpenAIChatChoice = {
    index,
    message: { role: 'assistant', content: message.content, refusal: message.refusal ?? null },
    finish_reason: choice.finishReason,
    logprobs: choice.logprobs ?? null,
  };
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
    out.message.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (message.reasoning !== undefined) out.message.reasoning_content = message.reasoning;
  return out;
}

/**
 * Encodes a canonical result as the OpenAI `chat.completion` object.
 *
 * When `meta.n` exceeds the provider's choice count, the first choice is replicated up to `n`
 * with consecutive indices (spec §chat completion response) and `replicatedChoices` says how
 * many were added. `usage` is omitted when the result carries none (the pipeline estimates it
 * when the provider reports nothing); `svc_metadata` is added when given.
 */
export function encodeChatCompletion(result: ChatResult, meta: ChatCompletionMeta): EncodedChatCompletion {
  const choices = result.choices.map((choice) => encodeChoice(choice, choice.index));
  const first = result.choices[0];
  const target = meta.n ?? 1;
  let replicatedChoices = 0;
  if (first !== undefined) {
    for (let index = choices.length; index < target; index++) {
      choices.push(encodeChoice(first, index));
      replicatedChoices++;
    }
  }
  const body: OpenAIChatCompletion = {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices,
  };
  if (result.systemFingerprint !== undefined) body.system_fingerprint = result.systemFingerprint;
  if (result.usage !== undefined) body.usage = encodeUsage(result.usage);
  if (meta.svcMetadata !== undefined) body.svc_metadata = meta.svcMetadata;
  return { body, replicatedChoices };
}
