import { estimateTokens } from '@svc/billing';
import type { EmbeddingRequest, EmbeddingResult } from '../provider.js';
import { malformedEmbeddings } from './embedding-vectors.js';
import { chunk, mapConcurrent } from './map-concurrent.js';

/** How an upstream limits one embeddings call. */
export interface EmbedBatchLimits {
  /** Most texts one upstream call takes. */
  batchSize: number;
  /** Most upstream calls in flight for one request. */
  concurrency: number;
}

/**
 * Embeds `request.input` in upstream-sized batches, at most `limits.concurrency` at a time, and
 * joins the answers in input order with their usage summed. Each batch must answer one vector
 * per text. One failed batch aborts the others and rejects the whole call (nothing is billed
 * to the caller for half an answer they cannot use).
 */
export async function embedInBatches(
  provider: string,
  request: EmbeddingRequest,
  limits: EmbedBatchLimits,
  signal: AbortSignal | undefined,
  embedBatch: (input: string[], signal: AbortSignal | undefined) => Promise<EmbeddingResult>,
): Promise<EmbeddingResult> {
  const batches = chunk(request.input, limits.batchSize);
  const results = await mapConcurrent(batches, limits.concurrency, signal, async (input, batchSignal) => {
    const result = await embedBatch(input, batchSignal);
    if (result.embeddings.length !== input.length) throw malformedEmbeddings(provider, `${result.embeddings.length} vectors for ${input.length} inputs.`);
    return result;
  });
  let promptTokens = 0;
  for (const result of results) promptTokens += result.usage.promptTokens;
  return {
    model: results[0]?.model ?? request.model,
    embeddings: results.flatMap((result) => result.embeddings),
    usage: { promptTokens, totalTokens: promptTokens },
  };
}

/** A token count for upstreams that report none (about four characters per token). */
export function estimateEmbeddingTokens(input: readonly string[]): number {
  let tokens = 0;
  for (const text of input) tokens += estimateTokens(text);
  return tokens;
}
