import * as v from 'valibot';
import type { CallOptions, EmbeddingRequest, EmbeddingResult } from '../provider.js';
import { malformedEmbeddings, readFloat32Vector } from '../shared/embedding-vectors.js';
import type { HttpClient } from '../shared/http-client.js';
import { type ErrorClassification, isRecord, postJson, readResponseJson } from '../shared/http.js';
import type { ResolvedCompatibility } from './openai-compatibility.js';
import { type OpenAIEmbeddingRequestBody, openAIEmbeddingResponseSchema } from './openai-embed-api.js';
import { openAIPayloadError } from './openai-error.js';

/** Where one `/embeddings` call goes and how; OpenAI, compatible vendors and Azure differ only here. */
export interface OpenAIEmbedTarget {
  provider: string;
  http: HttpClient;
  /** Full `/embeddings` URL. */
  url: string;
  headers: Record<string, string>;
  /** The body's `model` (Azure: the deployment name). */
  model: string;
  compat: Pick<ResolvedCompatibility, 'embeddingEncoding' | 'embeddingDimensionsField' | 'unsupported'>;
  classify(status: number, text: string): ErrorClassification;
}

// "Invalid 'input[0]': maximum input length is 8192 tokens." is a 400 the chat classifier,
// which knows "maximum context length", would leave as invalid_request.
const inputTooLong = /maximum input length|input is too long|too many tokens/i;

/** The body of one `/embeddings` call: the whole batch in one request, as OpenAI takes up to 2048 inputs. */
export function buildOpenAIEmbeddingBody(request: EmbeddingRequest, target: Pick<OpenAIEmbedTarget, 'model' | 'compat'>): OpenAIEmbeddingRequestBody {
  const body: OpenAIEmbeddingRequestBody = { model: target.model, input: request.input };
  if (target.compat.embeddingEncoding === 'base64') body.encoding_format = 'base64';
  if (request.dimensions !== undefined) body[target.compat.embeddingDimensionsField] = request.dimensions;
  if (request.user !== undefined && !target.compat.unsupported.has('user')) body.user = request.user;
  return body;
}

/** POSTs one `/embeddings` request and reads the vectors back in input order. */
export async function openAIEmbed(target: OpenAIEmbedTarget, request: EmbeddingRequest, options: CallOptions | undefined): Promise<EmbeddingResult> {
  const response = await postJson({
    provider: target.provider,
    http: target.http,
    url: target.url,
    headers: target.headers,
    body: buildOpenAIEmbeddingBody(request, target),
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: (status, text) => {
      const classified = target.classify(status, text);
      return classified.kind === 'invalid_request' && classified.message !== undefined && inputTooLong.test(classified.message)
        ? { ...classified, kind: 'context_length' }
        : classified;
    },
  });
  const json = await readResponseJson(target.provider, response, options?.signal);
  if (isRecord(json) && json.error != null && json.data === undefined) throw openAIPayloadError(target.provider, json);
  return mapOpenAIEmbeddingResponse(target.provider, json, request, response.status);
}

/** Reads an `/embeddings` answer: vectors placed by `index` (else position), usage, model. */
export function mapOpenAIEmbeddingResponse(provider: string, json: unknown, request: EmbeddingRequest, status?: number): EmbeddingResult {
  const parsed = v.safeParse(openAIEmbeddingResponseSchema, json);
  if (!parsed.success) throw malformedEmbeddings(provider, v.summarize(parsed.issues), status);
  const { data, usage, model } = parsed.output;
  const count = request.input.length;
  if (data.length !== count) throw malformedEmbeddings(provider, `${data.length} vectors for ${count} inputs.`, status);
  const embeddings = new Array<Float32Array>(count);
  for (let position = 0; position < count; position++) {
    const item = data[position]!;
    const index = item.index ?? position;
    const vector = readFloat32Vector(item.embedding);
    if (vector === undefined) throw malformedEmbeddings(provider, `vector ${index} is neither a number array nor base64 float32.`, status);
    if (!Number.isInteger(index) || index < 0 || index >= count || embeddings[index] !== undefined) {
      throw malformedEmbeddings(provider, `vector index ${index} is out of place.`, status);
    }
    embeddings[index] = vector;
  }
  const promptTokens = usage?.prompt_tokens ?? usage?.total_tokens ?? 0;
  return { model: model ?? request.model, embeddings, usage: { promptTokens, totalTokens: usage?.total_tokens ?? promptTokens } };
}
