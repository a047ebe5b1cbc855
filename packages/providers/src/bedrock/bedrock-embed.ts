import { ProviderError } from '@svc/core';
import * as v from 'valibot';
import { COHERE_EMBED_LIMITS, type CohereEmbedBody, buildCohereEmbedBody, readCohereEmbeddings } from '../cohere/cohere-embed.js';
import type { CallOptions, EmbeddingRequest, EmbeddingResult } from '../provider.js';
import { embedInBatches } from '../shared/embed-batches.js';
import { malformedEmbeddings, readFloat32Vector } from '../shared/embedding-vectors.js';
import type { HttpResponse } from '../shared/http-client.js';
import { readResponseJson } from '../shared/http.js';

const PROVIDER = 'bedrock';

/** Titan embeds one text per InvokeModel call; this many run at once for one request. */
const titanLimits = { batchSize: 1, concurrency: 8 };

// Matches foundation model ids, inference profiles (`us.cohere.embed-v4:0`) and ARNs alike.
const cohereModel = /cohere\.embed/;
const titanV1Model = /titan-embed-(text-v1|g1-text)/;

/** Titan Text Embeddings v2 body; v1 takes `inputText` alone. */
export interface TitanEmbedBody {
  inputText: string;
  dimensions?: number;
  normalize?: boolean;
}

const titanResponseSchema = v.object({ embedding: v.unknown(), inputTextTokenCount: v.nullish(v.number()) });

/**
 * Bedrock embeddings through `InvokeModel` (`POST /model/{modelId}/invoke`). Cohere embed models
 * (`cohere.embed-*`) take batches of 96 `texts` with `input_type`, as Cohere's own API does,
 * without `model`. Titan Text Embeddings take one `inputText` per call, so a batch is that many
 * calls, 8 at a time; v2 gets `dimensions` and `normalize: true`, v1 has neither and rejects a
 * `dimensions` request before any call. Usage is Bedrock's `x-amzn-bedrock-input-token-count`
 * (Titan also reports `inputTextTokenCount`).
 */
export function bedrockEmbed(
  request: EmbeddingRequest,
  options: CallOptions,
  invoke: (body: TitanEmbedBody | CohereEmbedBody, options: CallOptions) => Promise<HttpResponse>,
): Promise<EmbeddingResult> {
  if (cohereModel.test(request.model)) {
    return embedInBatches(PROVIDER, request, COHERE_EMBED_LIMITS, options.signal, async (texts, signal) => {
      const response = await invoke(buildCohereEmbedBody(request, texts, false), { ...options, signal });
      const json = await readResponseJson(PROVIDER, response, signal);
      const { embeddings, inputTokens } = readCohereEmbeddings(PROVIDER, json, response.status);
      const tokens = headerTokens(response) ?? inputTokens ?? 0;
      return { model: request.model, embeddings, usage: { promptTokens: tokens, totalTokens: tokens } };
    });
  }
  const v1 = titanV1Model.test(request.model);
  if (v1 && request.dimensions !== undefined) {
    return Promise.reject(
      new ProviderError({ provider: PROVIDER, kind: 'invalid_request', message: `${request.model} does not support dimensions.`, param: 'dimensions' }),
    );
  }
  return embedInBatches(PROVIDER, request, titanLimits, options.signal, async ([inputText = ''], signal) => {
    const body: TitanEmbedBody = v1 ? { inputText } : { inputText, ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }), normalize: true };
    const response = await invoke(body, { ...options, signal });
    const json = await readResponseJson(PROVIDER, response, signal);
    const parsed = v.safeParse(titanResponseSchema, json);
    if (!parsed.success) throw malformedEmbeddings(PROVIDER, v.summarize(parsed.issues), response.status);
    const vector = readFloat32Vector(parsed.output.embedding);
    if (vector === undefined) throw malformedEmbeddings(PROVIDER, 'embedding is not a number array.', response.status);
    const tokens = parsed.output.inputTextTokenCount ?? headerTokens(response) ?? 0;
    return { model: request.model, embeddings: [vector], usage: { promptTokens: tokens, totalTokens: tokens } };
  });
}

function headerTokens(response: HttpResponse): number | undefined {
  const value = Number.parseInt(response.headers.get('x-amzn-bedrock-input-token-count') ?? '', 10);
  return Number.isFinite(value) ? value : undefined;
}
