import type { ChatMessage, ChatRequest, ToolCall } from '@svc/core';
import type { DecodedResponsesRequest } from './decode-responses-request.js';
import type { OutputItem } from './response-types.js';

/** The request a Responses body makes once the turns of the response it continues are known. */
export interface ResponsesConversation {
  /** The canonical request: this body's `instructions`, the earlier turns, then this `input`. */
  request: ChatRequest;
  /** The turns without `instructions` (the earlier ones, then this input): what is kept for a later continuation. */
  turns: ChatMessage[];
}

/**
 * Joins the turns of a kept response (`previous_response_id`) to a decoded body. As at OpenAI,
 * the earlier response's `instructions` are not carried over: only this body's lead the request.
 */
export function conversationOf(decoded: DecodedResponsesRequest, earlier: readonly ChatMessage[] = []): ResponsesConversation {
  const { messages } = decoded.request;
  const hasInstructions = decoded.echo.instructions !== null;
  const turns = [...earlier, ...(hasInstructions ? messages.slice(1) : messages)];
  const request = earlier.length === 0 ? decoded.request : { ...decoded.request, messages: [...messages.slice(0, hasInstructions ? 1 : 0), ...turns] };
  return { request, turns };
}

/**
 * A response's `output` as the assistant turn a continuation replays: its text, its refusal and
 * its function calls (reasoning is dropped, as replayed `reasoning` input items are).
 */
export function answerTurn(output: readonly OutputItem[]): ChatMessage {
  let text = '';
  let refusal: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const item of output) {
    if (item.type === 'function_call') toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type === 'output_text') text += part.text;
      else refusal = (refusal ?? '') + part.refusal;
    }
  }
  const turn: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (refusal !== undefined) turn.refusal = refusal;
  if (toolCalls.length > 0) turn.toolCalls = toolCalls;
  return turn;
}
