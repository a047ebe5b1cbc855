import { ProviderError } from '@svc/core';
import { classifyAnthropicError } from '../anthropic/anthropic-error.js';
import { type GeminiErrorClassification, classifyGeminiError } from '../gemini/gemini-error.js';
import { isRecord } from '../shared/http.js';

/**
 * `postJson` classifier for Claude on Vertex. The model's own failures (overloaded, prompt too
 * long) come back in the Anthropic shape `{type:'error', error:{type, message}}`, while Vertex
 * itself (quota, auth, unknown model) answers Google's `{error:{code, message, status}}`.
 */
export function classifyVertexAnthropicError(status: number, body: string): GeminiErrorClassification {
  return isAnthropicError(body) ? classifyAnthropicError(status, body) : classifyGeminiError(status, body);
}

function isAnthropicError(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) && parsed.type === 'error';
  } catch {
    return false;
  }
}

/**
 * The reused Gemini and Anthropic readers name their own provider in the errors they throw;
 * the waterfall and the decision log must see `vertex`. Anything else passes unchanged.
 */
export function asVertexError(error: unknown, retryAfterMs?: number): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error.provider === 'vertex' && (retryAfterMs === undefined || error.retryAfterMs !== undefined)) return error;
  return new ProviderError({
    provider: 'vertex',
    kind: error.kind,
    message: error.message,
    upstreamStatus: error.upstreamStatus,
    upstreamCode: error.upstreamCode,
    retryAfterMs: error.retryAfterMs ?? retryAfterMs,
    param: error.param,
    cause: error.cause ?? error,
  });
}

/** Re-throws a reused stream reader's errors as `vertex` errors; `return()` still reaches the reader. */
export async function* asVertexStream<T>(events: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* events;
  } catch (error) {
    throw asVertexError(error);
  }
}
