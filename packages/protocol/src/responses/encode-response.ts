import type { ChatResult } from '@svc/core';
import {
  type ResponseMeta,
  encodeResponsesUsage,
  functionCallItemId,
  messageItemId,
  reasoningItemId,
  responseShell,
  statusOf,
} from './response-shell.js';
import type { OutputContentPart, OutputItem, ResponseObject } from './response-types.js';

/**
 * Encodes a canonical result as the Responses-API `response` object.
 *
 * - Output: a `reasoning` item (`content: [{type: 'reasoning_text'}]`) when the provider
 *   returned reasoning text, then one `message` item with an `output_text` part (and a `refusal` part when the
 *   model refused) unless the turn only called tools, then one `function_call` item per call.
 * - `status` is `completed`, or `incomplete` with `incomplete_details.reason`
 *   `max_output_tokens` / `content_filter`; the message item carries the same status.
 * - `output_text` is not sent: the official SDKs compute it client-side from `output`.
 * - Only the first choice is encoded (the Responses API has no `n`).
 */
export function encodeResponse(result: ChatResult, meta: ResponseMeta): ResponseObject {
  const body = responseShell(meta, 'completed');
  const choice = result.choices[0];
  Object.assign(body, statusOf(choice?.finishReason));
  const message = choice?.message;
  const calls = message?.toolCalls ?? [];
  const content: OutputContentPart[] = [];
  if (message?.content) content.push({ type: 'output_text', text: message.content, annotations: [], logprobs: [] });
  if (message?.refusal) content.push({ type: 'refusal', refusal: message.refusal });
  const output: OutputItem[] = [];
  if (message?.reasoning) {
    output.push({ type: 'reasoning', id: reasoningItemId(), summary: [], content: [{ type: 'reasoning_text', text: message.reasoning }], status: 'completed' });
  }
  if (content.length > 0 || calls.length === 0) {
    if (content.length === 0) content.push({ type: 'output_text', text: '', annotations: [], logprobs: [] });
    const status = body.status === 'incomplete' ? 'incomplete' : 'completed';
    output.push({ type: 'message', id: messageItemId(), status, role: 'assistant', content });
  }
  for (const call of calls) {
    output.push({ type: 'function_call', id: functionCallItemId(), call_id: call.id, name: call.name, arguments: call.arguments, status: 'completed' });
  }
  body.output = output;
  if (result.usage !== undefined) body.usage = encodeResponsesUsage(result.usage);
  if (meta.svcMetadata !== undefined) body.svc_metadata = meta.svcMetadata;
  return body;
}
