/**
 * TypeScript shapes of the Responses-API objects the gateway sends (wire names on purpose:
 * they are serialised as they are).
 */
import type { SvcMetadata } from '@svc/core';

export interface ResponsesUsage {
  input_tokens: number;
  /** Prompt-cache reads; `cache_write_tokens` (as on chat completions) when the provider reported writes. */
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

export type OutputContentPart = OutputTextPart | RefusalPart;

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface OutputMessageItem {
  type: 'message';
  id: string;
  status: ItemStatus;
  role: 'assistant';
  content: OutputContentPart[];
}

export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
}

/** Reasoning text the provider returned (Anthropic thinking, DeepSeek/OpenRouter reasoning). */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content: { type: 'reasoning_text'; text: string }[];
  status: ItemStatus;
}

/** The tools an MCP server offered (or why it could not be listed). */
export interface McpListToolsItem {
  type: 'mcp_list_tools';
  id: string;
  server_label: string;
  tools: { name: string; description: string | null; input_schema: Record<string, unknown>; annotations: Record<string, unknown> | null }[];
  error: string | null;
}

/** A call the gateway made to an MCP server for the model. */
export interface McpCallItem {
  type: 'mcp_call';
  id: string;
  server_label: string;
  name: string;
  arguments: string;
  output: string | null;
  error: string | null;
  status: 'in_progress' | 'completed' | 'failed';
  approval_request_id: string | null;
}

/** A call the model asked for that waits for the caller's `mcp_approval_response`. */
export interface McpApprovalRequestItem {
  type: 'mcp_approval_request';
  id: string;
  server_label: string;
  name: string;
  arguments: string;
}

export type McpOutputItem = McpListToolsItem | McpCallItem | McpApprovalRequestItem;

export type OutputItem = ReasoningItem | OutputMessageItem | FunctionCallItem | McpOutputItem;

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** The `response` object (non-stream body, and the snapshot inside lifecycle stream events). */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number | null;
  top_p: number | null;
  text: { format: Record<string, unknown> };
  tool_choice: string | { type: 'function'; name: string };
  tools: Record<string, unknown>[];
  truncation: 'disabled';
  usage: ResponsesUsage | null;
  metadata: Record<string, string>;
  user?: string;
  svc_metadata?: SvcMetadata;
}

/** What the Response object echoes back of its request (wire names). */
export interface ResponseEcho {
  instructions: string | null;
  /** Whether the response is kept (`store`, default true). */
  store: boolean;
  /** The kept response this request continues, if any. */
  previous_response_id: string | null;
  /** The request's `mcp` tools as echoed in `tools` (no credentials). */
  mcp_tools?: Record<string, unknown>[];
}
