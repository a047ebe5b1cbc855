import { type ChatRequest, type FinishReason, type SvcMetadata, type Usage, randomId } from '@svc/core';
import type { ResponseEcho, ResponseObject, ResponseStatus, ResponsesUsage } from './response-types.js';

/** What every Response object needs besides its output. */
export interface ResponseMeta {
  /** `resp_...`; see {@link responseId}. */
  id: string;
  /** Unix epoch seconds. */
  createdAt: number;
  /** The model that answered, as reported to the caller. */
  model: string;
  /** The decoded request, echoed in the object's settings fields. */
  request: ChatRequest;
  echo: ResponseEcho;
  svcMetadata?: SvcMetadata;
}

/** `<prefix>_` and 32 random characters: the shape of every Responses-API id. */
export const randomItemId = (prefix: string): string => `${prefix}_${randomId(32)}`;
export const responseId = (): string => randomItemId('resp');
export const messageItemId = (): string => randomItemId('msg');
export const functionCallItemId = (): string => randomItemId('fc');
export const reasoningItemId = (): string => randomItemId('rs');

/** Canonical usage -> Responses `usage` (detail counts are 0 when the provider gave none; cache writes only when reported). */
export function encodeResponsesUsage(usage: Usage): ResponsesUsage {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details:
      usage.cacheWriteTokens === undefined
        ? { cached_tokens: usage.cachedPromptTokens ?? 0 }
        : { cached_tokens: usage.cachedPromptTokens ?? 0, cache_write_tokens: usage.cacheWriteTokens },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens,
  };
}

/** `length` -> incomplete (max_output_tokens), `content_filter` -> incomplete; else completed. */
export function statusOf(finish: FinishReason | undefined): Pick<ResponseObject, 'status' | 'incomplete_details'> {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The Response object with no output yet, its settings echoed from the request. */
export function responseShell(meta: ResponseMeta, status: ResponseStatus): ResponseObject {
  const { request } = meta;
  const format = request.responseFormat;
  const out: ResponseObject = {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    error: null,
    incomplete_details: null,
    instructions: meta.echo.instructions,
    max_output_tokens: request.maxTokens ?? null,
    model: meta.model,
    output: [],
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: meta.echo.previous_response_id,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    store: meta.echo.store,
    temperature: request.temperature ?? null,
    top_p: request.topP ?? null,
    text: { format: format === undefined ? { type: 'text' } : format },
    tool_choice:
      request.toolChoice === undefined
        ? 'auto'
        : typeof request.toolChoice === 'string'
          ? request.toolChoice
          : { type: 'function', name: request.toolChoice.name },
    tools: [
      ...(request.tools ?? []).map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description ?? null,
        parameters: tool.parameters ?? null,
        strict: tool.strict ?? null,
      })),
      ...(meta.echo.mcp_tools ?? []),
    ],
    truncation: 'disabled',
    usage: null,
    metadata: request.metadata ?? {},
  };
  if (request.user !== undefined) out.user = request.user;
  return out;
}
