import type { ChatResult, SvcMetadata } from '@svc/core';
import type { OpenAICompletion, OpenAICompletionChoice } from './completions-response-types.js';
import { encodeUsage } from './encode-usage.js';

export interface CompletionMeta {
  /** Gateway completion id (`cmpl-...`). */
  id: string;
  /** Unix epoch seconds. */
  created: number;
  /** The model that answered, as reported to the caller. */
  model: string;
  /** Prepended to every choice's text (`echo: true`). */
  echoPrompt?: string;
  /** Choices the caller asked for; fewer provider choices are padded with copies of the first. */
  n?: number;
  svcMetadata?: SvcMetadata;
  /** Request fields accepted without effect, merged into `svc_metadata.not_applied`. */
  notApplied?: readonly string[];
}

/**
 * Encodes a canonical chat result as the legacy `text_completion` object: each choice's message
 * content becomes `text` (an empty string when the model answered none).
 */
export function encodeCompletion(result: ChatResult, meta: CompletionMeta): OpenAICompletion {
  const prefix = meta.echoPrompt ?? '';
  const choices: OpenAICompletionChoice[] = result.choices.map((choice) => ({
    text: prefix + (choice.message.content ?? ''),
    index: choice.index,
    logprobs: null,
    finish_reason: choice.finishReason,
  }));
  const first = choices[0];
  if (first !== undefined) {
    for (let index = choices.length; index < (meta.n ?? 1); index++) choices.push({ ...first, index });
  }
  const body: OpenAICompletion = { id: meta.id, object: 'text_completion', created: meta.created, model: meta.model, choices };
  if (result.usage !== undefined) body.usage = encodeUsage(result.usage);
  if (meta.svcMetadata !== undefined) {
    const notApplied = [...(meta.svcMetadata.not_applied ?? []), ...(meta.notApplied ?? [])];
    body.svc_metadata = notApplied.length > 0 ? { ...meta.svcMetadata, not_applied: notApplied } : meta.svcMetadata;
  }
  return body;
}
