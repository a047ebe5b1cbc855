import { type ChatRequest, namespacedTool } from '@svc/core';
import type * as v from 'valibot';
import type { chatRequestSchema } from '../openai/chat-request-schema.js';
import { decodeChatRequest } from '../openai/decode-chat-request.js';
import { parseRequestBody } from '../shared/parse-request-body.js';
import { inputItemsOf } from './input-items.js';
import {
  type ResponsesMcpTool,
  type ResponsesInputItem,
  type ResponsesInputPart,
  type ResponsesWireRequest,
  responsesRequestSchema,
} from './responses-request-schema.js';

type ChatWireRequest = v.InferInput<typeof chatRequestSchema>;
type ChatWireMessage = ChatWireRequest['messages'][number];
type ChatWirePart = Exclude<Extract<ChatWireMessage, { role: 'user' }>['content'], string>[number];

import type { ResponseEcho } from './response-types.js';

export type { ResponseEcho };

export interface DecodedResponsesRequest {
  /** The canonical request of this body alone: the `instructions` message, then the `input` turns. */
  request: ChatRequest;
  echo: ResponseEcho;
  /** The `input` as items with ids (what `GET /v1/responses/{id}/input_items` lists). */
  inputItems: Record<string, unknown>[];
  /** The `mcp` tools, which the gateway runs itself (their `function` counterparts are not in `request.tools`). */
  mcpTools: ResponsesMcpTool[];
  /** The `mcp_approval_response` items of `input`: answers to the continued response's approval requests. */
  approvals: McpApprovalAnswer[];
}

/** The caller's answer to one `mcp_approval_request`. */
export interface McpApprovalAnswer {
  approvalRequestId: string;
  approve: boolean;
  reason: string | undefined;
}

/**
 * Validates a `POST /v1/responses` body and maps it to the canonical {@link ChatRequest}:
 *
 * - `instructions` becomes a leading `system` message; a string `input` one `user` message.
 * - `function_call` items join the preceding assistant turn (or start one) as tool calls;
 *   `function_call_output` items become `tool` turns; replayed `reasoning` items are dropped.
 * - `max_output_tokens` -> `maxTokens`, `text.format` -> `responseFormat`, `reasoning.effort`
 *   -> `reasoning.effort`; streams always ask the provider for usage (`response.completed`
 *   carries it).
 * - `store` and `previous_response_id` are echoed; keeping and continuing are the route's
 *   (see `conversationOf` for how a kept conversation joins the request).
 *
 * The canonical mapping is the chat decoder's (one place owns it); every field is validated
 * here first, so a 400 names the Responses field (`input.2.call_id`, `text.format.type`).
 *
 * @throws GatewayError 400 `invalid_request_error` naming the first offending field.
 */
export function decodeResponsesRequest(body: unknown): DecodedResponsesRequest {
  const wire = parseRequestBody(responsesRequestSchema, body);
  const chatWire = toChatWire(wire);
  const approvals = approvalsOf(wire.input);
  // Input of approval answers alone adds no turn (the calls' turns are the route's): the chat
  // decoder wants a message, so one stands in for the decoding and is dropped after it.
  const answersOnly = chatWire.messages.length === 0 && approvals.length > 0;
  if (answersOnly) chatWire.messages.push({ role: 'user', content: '' });
  const request = decodeChatRequest(chatWire);
  if (answersOnly) request.messages = [];
  const mcpTools = (wire.tools ?? []).flatMap((tool) => (tool.type === 'mcp' ? [tool] : []));
  const echo: ResponseEcho = { instructions: wire.instructions ?? null, store: wire.store ?? true, previous_response_id: wire.previous_response_id ?? null };
  if (mcpTools.length > 0) echo.mcp_tools = mcpTools.map(echoedMcpTool);
  return { request, echo, inputItems: inputItemsOf(wire.input), mcpTools, approvals };
}

/** An `mcp` tool as the response echoes it: without `headers` and `authorization`, which are credentials. */
function echoedMcpTool(tool: ResponsesMcpTool): Record<string, unknown> {
  const { headers: _headers, authorization: _authorization, connector_id: _connector, tunnel_id: _tunnel, ...rest } = tool;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value != null));
}

function approvalsOf(input: ResponsesWireRequest['input']): McpApprovalAnswer[] {
  const items = Array.isArray(input) ? input : typeof input === 'string' ? [] : [input];
  return items.flatMap((item) =>
    item.type === 'mcp_approval_response' ? [{ approvalRequestId: item.approval_request_id, approve: item.approve, reason: item.reason ?? undefined }] : [],
  );
}

function toChatWire(wire: ResponsesWireRequest): ChatWireRequest {
  const messages: ChatWireMessage[] = [];
  if (wire.instructions != null) messages.push({ role: 'system', content: wire.instructions });
  if (typeof wire.input === 'string') messages.push({ role: 'user', content: wire.input });
  else if (Array.isArray(wire.input)) for (const item of wire.input) pushItem(messages, item);
  else pushItem(messages, wire.input);

  const out: ChatWireRequest = { model: wire.model, messages };
  if (wire.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (wire.temperature != null) out.temperature = wire.temperature;
  if (wire.top_p != null) out.top_p = wire.top_p;
  if (wire.max_output_tokens != null) out.max_completion_tokens = wire.max_output_tokens;
  const functions = (wire.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool] : []));
  if (functions.length > 0) {
    out.tools = functions.map(({ name, description, parameters, strict }) => ({
      type: 'function',
      function: { name, description, parameters, strict },
    }));
  }
  if (wire.tool_choice != null) {
    out.tool_choice =
      typeof wire.tool_choice === 'string' ? wire.tool_choice : { type: 'function', function: { name: wire.tool_choice.name } };
  }
  if (wire.parallel_tool_calls != null) out.parallel_tool_calls = wire.parallel_tool_calls;
  const format = wire.text?.format;
  if (format != null) {
    out.response_format =
      format.type === 'json_schema'
        ? {
            type: 'json_schema',
            json_schema: { name: format.name, schema: format.schema, strict: format.strict, description: format.description },
          }
        : { type: format.type };
  }
  if (wire.reasoning != null) out.reasoning = { effort: wire.reasoning.effort, summary: wire.reasoning.summary };
  if (wire.user != null) out.user = wire.user;
  if (wire.metadata != null) out.metadata = wire.metadata;
  if (wire.routing_hints != null) out.routing_hints = wire.routing_hints;
  if (wire.routing_override != null) out.routing_override = wire.routing_override;
  if (wire.svc != null) out.svc = wire.svc;
  if (wire.models != null) out.models = wire.models;
  return out;
}

function pushItem(messages: ChatWireMessage[], item: ResponsesInputItem): void {
  switch (item.type) {
    case 'reasoning':
    case 'mcp_list_tools':
    case 'mcp_approval_request':
    case 'mcp_approval_response':
      // Provider reasoning cannot be replayed through the canonical request (no signatures); MCP
      // listings are made anew, approvals answer a kept response (its turns hold the calls).
      return;
    case 'mcp_call':
      if (item.id && item.server_label && item.name) {
        pushToolCall(messages, { id: item.id, type: 'function', function: { name: namespacedTool(item.server_label, item.name), arguments: item.arguments ?? '{}' } });
        messages.push({ role: 'tool', tool_call_id: item.id, content: item.output ?? `Error: ${item.error ?? 'the call gave no output.'}` });
      }
      return;
    case 'function_call':
      pushToolCall(messages, { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
      return;
    case 'function_call_output':
      messages.push({
        role: 'tool',
        tool_call_id: item.call_id,
        content: typeof item.output === 'string' ? item.output : item.output.map(toChatPart),
      });
      return;
    default: {
      const content = typeof item.content === 'string' ? item.content : item.content.map(toChatPart);
      messages.push({ role: item.role, content });
    }
  }
}

/** A call joins the assistant turn before it (parallel calls are one turn), or opens one. */
function pushToolCall(messages: ChatWireMessage[], call: NonNullable<Extract<ChatWireMessage, { role: 'assistant' }>['tool_calls']>[number]): void {
  const last = messages.at(-1);
  if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
  else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
}

function toChatPart(part: ResponsesInputPart): ChatWirePart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'input_image':
      if (part.image_url != null) return { type: 'image_url', image_url: { url: part.image_url, detail: part.detail } };
      return { type: 'file', file: { file_id: part.file_id } };
    case 'input_file':
      return { type: 'file', file: { file_data: part.file_data, file_id: part.file_id, filename: part.filename } };
    case 'refusal':
      return { type: 'refusal', refusal: part.refusal };
  }
}
