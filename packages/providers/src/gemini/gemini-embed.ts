import * as v from 'valibot';
import type { CallOptions, EmbeddingRequest, EmbeddingResult } from '../provider.js';
import { embedInBatches, estimateEmbeddingTokens } from '../shared/embed-batches.js';
import { malformedEmbeddings, readFloat32Vector } from '../shared/embedding-vectors.js';
import type { HttpResponse } from '../shared/http-client.js';
import { readResponseJson } from '../shared/http.js';

const PROVIDER = 'gemini';

/** `batchEmbedContents` takes at most 100 requests per call. */
const limits = { batchSize: 100, concurrency: 4 };

const batchEmbedResponseSchema = v.object({
  embeddings: v.array(v.object({ values: v.unknown() })),
});

/** One `:batchEmbedContents` body: one request per text, each naming the model again as the API requires. */
export interface GeminiBatchEmbedBody {
  requests: {
    model: string;
    content: { parts: { text: string }[] };
    taskType?: 'RETRIEVAL_QUERY' | 'RETRIEVAL_DOCUMENT';
    outputDimensionality?: number;
  }[];
}

/** Builds the body for one batch of texts. */
export function buildGeminiEmbedBody(request: EmbeddingRequest, input: readonly string[]): GeminiBatchEmbedBody {
  const taskType = request.inputType === 'query' ? 'RETRIEVAL_QUERY' : request.inputType === 'document' ? 'RETRIEVAL_DOCUMENT' : undefined;
  return {
    requests: input.map((text) => ({
      model: `models/${request.model}`,
      content: { parts: [{ text }] },
      ...(taskType === undefined ? {} : { taskType }),
      ...(request.dimensions === undefined ? {} : { outputDimensionality: request.dimensions }),
    })),
  };
}

/**
 * Gemini embeddings: `POST /v1beta/models/{model}:batchEmbedContents`, in batches of 100 texts,
 * `inputType` as `taskType` (RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT), `dimensions` as
 * `outputDimensionality`. Gemini reports no token counts for embeddings, so usage is an
 * estimate (about four characters per token).
 */
export function geminiEmbed(
  request: EmbeddingRequest,
  options: CallOptions,
  post: (model: string, body: GeminiBatchEmbedBody, options: CallOptions) => Promise<HttpResponse>,
): Promise<EmbeddingResult> {
  return embedInBatches(PROVIDER, request, limits, options.signal, async (input, signal) => {
    const response = await post(request.model, buildGeminiEmbedBody(request, input), { ...options, signal });
    const json = await readResponseJson(PROVIDER, response, signal);
    const parsed = v.safeParse(batchEmbedResponseSchema, json);
    if (!parsed.success) throw malformedEmbeddings(PROVIDER, v.summarize(parsed.issues), response.status);
    const embeddings = parsed.output.embeddings.map((embedding, index) => {
      const vector = readFloat32Vector(embedding.values);
      if (vector === undefined) throw malformedEmbeddings(PROVIDER, `vector ${index} is not a number array.`, response.status);
      return vector;
    });
    const tokens = estimateEmbeddingTokens(input);
    return { model: request.model, embeddings, usage: { promptTokens: tokens, totalTokens: tokens } };
  });
}
