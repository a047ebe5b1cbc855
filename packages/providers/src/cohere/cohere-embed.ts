import * as v from 'valibot';
import type { CallOptions, EmbeddingRequest, EmbeddingResult } from '../provider.js';
import { embedInBatches } from '../shared/embed-batches.js';
import { malformedEmbeddings, readFloat32Vector } from '../shared/embedding-vectors.js';
import type { HttpResponse } from '../shared/http-client.js';
import { readResponseJson } from '../shared/http.js';

/** Cohere's embed endpoints take at most 96 texts per call (on Bedrock too). */
export const COHERE_EMBED_LIMITS = { batchSize: 96, concurrency: 4 };

/**
 * The embed answer, v2 API and Bedrock alike: `embeddings` is `{float: [...]}` when
 * `embedding_types` was sent, a bare array of vectors otherwise (Bedrock's `embeddings_floats`).
 */
const cohereEmbedResponseSchema = v.object({
  embeddings: v.union([v.array(v.unknown()), v.object({ float: v.array(v.unknown()) })]),
  meta: v.nullish(
    v.object({
      billed_units: v.nullish(v.object({ input_tokens: v.nullish(v.number()) })),
      tokens: v.nullish(v.object({ input_tokens: v.nullish(v.number()) })),
    }),
  ),
});

/** What we send to `/v2/embed` (and, without `model`, to Bedrock's Cohere embed models). */
export interface CohereEmbedBody {
  model?: string;
  texts: string[];
  input_type: 'search_query' | 'search_document';
  embedding_types: ['float'];
  output_dimension?: number;
}

/** The body of one batch; `input_type` is required by v3+ models, so `document` stands in when absent. */
export function buildCohereEmbedBody(request: EmbeddingRequest, texts: string[], withModel: boolean): CohereEmbedBody {
  const body: CohereEmbedBody = {
    ...(withModel ? { model: request.model } : {}),
    texts,
    input_type: request.inputType === 'query' ? 'search_query' : 'search_document',
    embedding_types: ['float'],
  };
  if (request.dimensions !== undefined) body.output_dimension = request.dimensions;
  return body;
}

/** Reads the float vectors and the billed input tokens (absent on Bedrock, which counts in a header). */
export function readCohereEmbeddings(provider: string, json: unknown, status: number): { embeddings: Float32Array[]; inputTokens?: number } {
  const parsed = v.safeParse(cohereEmbedResponseSchema, json);
  if (!parsed.success) throw malformedEmbeddings(provider, v.summarize(parsed.issues), status);
  const raw = Array.isArray(parsed.output.embeddings) ? parsed.output.embeddings : parsed.output.embeddings.float;
  const embeddings = raw.map((values, index) => {
    const vector = readFloat32Vector(values);
    if (vector === undefined) throw malformedEmbeddings(provider, `vector ${index} is not a number array.`, status);
    return vector;
  });
  const meta = parsed.output.meta;
  const inputTokens = meta?.billed_units?.input_tokens ?? meta?.tokens?.input_tokens ?? undefined;
  return inputTokens === undefined ? { embeddings } : { embeddings, inputTokens };
}

/**
 * Cohere v2 embeddings: `POST /v2/embed` with `texts`, `input_type` (`search_query` for
 * queries, else `search_document`), `embedding_types: ['float']` and `output_dimension`, in
 * batches of 96. Usage is the billed input tokens. Cohere truncates over-long texts itself
 * (its default `truncate: END`), so they do not fail.
 */
export function cohereEmbed(
  request: EmbeddingRequest,
  options: CallOptions,
  post: (body: CohereEmbedBody, options: CallOptions) => Promise<HttpResponse>,
): Promise<EmbeddingResult> {
  return embedInBatches('cohere', request, COHERE_EMBED_LIMITS, options.signal, async (texts, signal) => {
    const response = await post(buildCohereEmbedBody(request, texts, true), { ...options, signal });
    const json = await readResponseJson('cohere', response, signal);
    const { embeddings, inputTokens = 0 } = readCohereEmbeddings('cohere', json, response.status);
    return { model: request.model, embeddings, usage: { promptTokens: inputTokens, totalTokens: inputTokens } };
  });
}
