import type { ChatResult, FinishReason, GatewayError, SvcMetadata, Usage } from '@svc/core';

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export type AnthropicOutputBlock =
  /**
   * No `citations` key: Anthropic omits it on a plain answer, and the Vercel AI SDK's Anthropic
   * provider rejects `citations: null` (its schema is an optional array).
   */
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | AnthropicMcpBlock;

/** A call the gateway made to an MCP server for the model (`mcp_servers`), and its result. */
export type AnthropicMcpBlock =
  | { type: 'mcp_tool_use'; id: string; name: string; server_name: string; input: unknown }
  | { type: 'mcp_tool_result'; tool_use_id: string; is_error: boolean; content: { type: 'text'; text: string }[] };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicOutputBlock[];
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  svc_metadata?: SvcMetadata;
}

export interface MessagesResponseMeta {
  /** Gateway message id (`msg_...`). */
  id: string;
  /** The model that answered, as reported to the caller. */
  model: string;
  svcMetadata?: SvcMetadata;
}

const stopReasons: Record<FinishReason, AnthropicStopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/** Canonical finish reason -> Anthropic `stop_reason`. */
export function toStopReason(reason: FinishReason): AnthropicStopReason {
  return stopReasons[reason];
}

/**
 * Canonical usage -> Anthropic usage. Anthropic's `input_tokens` excludes cache reads and writes
 * (the canonical `promptTokens` includes them), so they are subtracted and reported apart; like
 * Anthropic, both cache counts are always present (0 when nothing was read or written).
 */
export function toAnthropicUsage(usage: Usage | undefined): AnthropicUsage {
  if (usage === undefined) return { input_tokens: 0, output_tokens: 0 };
  const cacheRead = usage.cachedPromptTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.promptTokens - cacheRead - cacheWrite),
    output_tokens: usage.completionTokens,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}

/** Tool arguments are JSON text in canonical form; text that does not parse is kept as `{_raw: text}`. */
export function parseToolInput(args: string): unknown {
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return { _raw: args };
  }
}

/**
 * Encodes a canonical result as an Anthropic `message` object: reasoning (when the provider
 * returned it) as a `thinking` block with an empty signature, text as one `text` block, then one
 * `tool_use` block per tool call. Only the first choice is encoded (Messages has no `n`).
 */
export function encodeMessagesResponse(result: ChatResult, meta: MessagesResponseMeta): AnthropicMessage {
  const choice = result.choices[0];
  const content: AnthropicOutputBlock[] = [];
  const message = choice?.message;
  if (message?.reasoning) content.push({ type: 'thinking', thinking: message.reasoning, signature: '' });
  const text = (message?.content ?? '') + (message?.refusal ?? '');
  if (text !== '') content.push({ type: 'text', text });
  for (const call of message?.toolCalls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseToolInput(call.arguments) });
  }
  const body: AnthropicMessage = {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    stop_reason: choice === undefined ? null : toStopReason(choice.finishReason),
    stop_sequence: null,
    usage: toAnthropicUsage(result.usage),
  };
  if (meta.svcMetadata !== undefined) body.svc_metadata = meta.svcMetadata;
  return body;
}

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: AnthropicErrorType; message: string; code: string; param: string | null };
  request_id: string | null;
}

/** HTTP status -> Anthropic `error.type` (the SDKs branch on it, e.g. `overloaded_error`). */
export function anthropicErrorType(status: number): AnthropicErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'billing_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status === 504 || status === 408) return 'timeout_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/**
 * The Anthropic error body `{type: "error", error: {type, message, code, param}, request_id}`.
 * `error.type` is Anthropic's vocabulary for the status; `code` keeps the gateway's own code.
 */
export function encodeMessagesError(error: GatewayError, requestId?: string): AnthropicErrorBody {
  return {
    type: 'error',
    error: { type: anthropicErrorType(error.status), message: error.message, code: error.code, param: error.param },
    request_id: requestId ?? null,
  };
}
