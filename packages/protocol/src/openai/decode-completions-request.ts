import { type ChatRequest, invalidRequest } from '@svc/core';
import { parseRequestBody } from '../shared/parse-request-body.js';
import { decodeChatRequest } from './decode-chat-request.js';
import { completionsRequestSchema, type OpenAICompletionsRequest } from './completions-request-schema.js';

/** A decoded legacy completion request: the chat request to route, plus what the encoder needs. */
export interface DecodedCompletionsRequest {
  request: ChatRequest;
  /** The prompt as sent to the model (arrays joined with newlines). */
  prompt: string;
  /** `echo`: the prompt is prepended to every choice's text. */
  echo: boolean;
  /** Wire fields accepted without effect, for `svc_metadata.not_applied`. */
  notApplied: string[];
}

/**
 * Validates a legacy `POST /v1/completions` body and maps it to a canonical chat request with one
 * user message (spec: "internally translated to the chat pipeline").
 *
 * - `prompt` arrays are joined with newlines; an absent prompt is the empty string; token-id
 *   arrays are refused with 400 (decoding them needs the model's tokenizer).
 * - `stream: true` is refused with 400 `param: 'stream'`: streaming is chat completions' job.
 * - `best_of`, `suffix` and `logprobs` are accepted and reported in `notApplied`.
 *
 * @throws GatewayError 400 `invalid_request_error` naming the offending field.
 */
export function decodeCompletionsRequest(body: unknown): DecodedCompletionsRequest {
  const wire = parseRequestBody(completionsRequestSchema, body);
  if (wire.stream === true) {
    throw invalidRequest('Streaming is not supported on /v1/completions; use /v1/chat/completions with stream: true.', 'stream');
  }
  const prompt = typeof wire.prompt === 'string' ? wire.prompt : (wire.prompt ?? []).join('\n');
  const request = decodeChatRequest(toChatBody(wire, prompt));
  const notApplied: string[] = [];
  if (wire.best_of != null) notApplied.push('best_of');
  if (wire.suffix != null) notApplied.push('suffix');
  if (wire.logprobs != null) notApplied.push('logprobs');
  return { request, prompt, echo: wire.echo ?? false, notApplied };
}

/** The equivalent chat body, so the chat decoder maps the shared fields and extensions once. */
function toChatBody(wire: OpenAICompletionsRequest, prompt: string): Record<string, unknown> {
  const { prompt: _prompt, echo: _echo, logprobs: _logprobs, best_of: _bestOf, suffix: _suffix, stream: _stream, ...shared } = wire;
  return { ...shared, messages: [{ role: 'user', content: prompt }] };
}
