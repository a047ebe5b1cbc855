import { ProviderError, kindFromStatus } from '@svc/core';
import * as v from 'valibot';
import type { NativeBatches, NativeBatchLine, NativeBatchRef, ProviderChatRequest } from '../provider.js';
import { encodeMultipart, getOk, jsonLines, postBody, postJson, readResponseJson } from '../shared/http.js';
import { batchKey } from '../shared/batch-key.js';
import { findListed } from '../shared/batch-find.js';
import type { HttpResponse } from '../shared/http-client.js';
import type { KeyPool } from '../shared/key-pool.js';
import { mapOpenAIResponse } from './openai-chat.js';
import { openAIChatResponseSchema } from './openai-api.js';
import type { OpenAIConfig } from './openai-config.js';
import { classifyOpenAIError } from './openai-error.js';
import { buildOpenAIRequest } from './openai-request.js';

const ENDPOINT = '/v1/chat/completions';
const idSchema = v.object({ id: v.string() });
const batchSchema = v.object({ id: v.string(), status: v.string(), output_file_id: v.nullish(v.string()), error_file_id: v.nullish(v.string()) });
const outputLineSchema = v.object({
  custom_id: v.string(),
  response: v.nullish(v.object({ status_code: v.number(), body: v.unknown() })),
});

const listSchema = v.object({
  data: v.array(v.object({ id: v.string(), created_at: v.number(), metadata: v.nullish(v.record(v.string(), v.string())) })),
  has_more: v.boolean(),
  last_id: v.nullish(v.string()),
});

const running = new Set(['validating', 'in_progress', 'finalizing']);

/** The metadata key a submitted batch carries its gateway part id under (OpenAI keeps a batch's `metadata`). */
export const MARKER_KEY = 'svc_part';

/** What the batch calls share with the chat adapter: its config, base URL (with `/v1`) and key pool. */
export interface OpenAIBatchSettings {
  config: OpenAIConfig;
  base: string;
  pool: KeyPool | undefined;
}

/** One output or error file line read for its request: the chat answer, the upstream's refusal thrown, or undefined when it did not run (`batch_expired`, no response). */
function readLine(provider: string, line: v.InferOutput<typeof outputLineSchema>, request: ProviderChatRequest) {
  const response = line.response;
  if (!response) return undefined;
  if (response.status_code >= 200 && response.status_code < 300) {
    const parsed = v.safeParse(openAIChatResponseSchema, response.body);
    if (parsed.success) return mapOpenAIResponse(parsed.output, request.model);
    throw new ProviderError({ provider, kind: 'server', message: `${provider} sent an unexpected batch answer: ${v.summarize(parsed.issues)}`, upstreamStatus: response.status_code });
  }
  const classified = classifyOpenAIError(response.status_code, JSON.stringify(response.body ?? {}));
  throw new ProviderError({ provider, kind: classified.kind ?? kindFromStatus(response.status_code), message: classified.message ?? `${provider} answered ${response.status_code}.`, upstreamStatus: response.status_code, upstreamCode: classified.code, param: classified.param ?? null });
}

/** One page of `GET /batches` (newest first) as {@link findListed} reads it. */
async function listPage(provider: string, list: (path: string) => Promise<HttpResponse>, after: string | undefined, signal?: AbortSignal) {
  const page = v.parse(listSchema, await readResponseJson(provider, await list(`/batches?limit=100${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`), signal));
  return { data: page.data.map((batch) => ({ id: batch.id, createdAt: batch.created_at, marker: batch.metadata?.[MARKER_KEY] })), next: page.has_more && page.last_id ? page.last_id : undefined };
}

/**
 * OpenAI's Batch API for chat requests: the lines go up as a JSONL file (`POST /files`, purpose
 * `batch`), then `POST /batches` (`/v1/chat/completions`, `24h`); `GET /batches/{id}` polls;
 * the results are the output and error files' lines, read as they stream.
 */
export function openAIBatches({ config, base, pool }: OpenAIBatchSettings): NativeBatches {
  const { provider, http } = config;
  const headers = (ref: Pick<NativeBatchRef, 'key' | 'keyIndex'>) => config.headers(pool ? { apiKey: batchKey(provider, pool, ref) } : {});
  const get = (ref: NativeBatchRef, path: string, signal?: AbortSignal) => getOk({ provider, http, url: `${base}${path}`, headers: headers(ref), signal, classify: classifyOpenAIError });
  const batch = async (ref: NativeBatchRef, signal?: AbortSignal) => v.parse(batchSchema, await readResponseJson(provider, await get(ref, `/batches/${encodeURIComponent(ref.id)}`, signal), signal));

  async function* fileLines(ref: NativeBatchRef, fileId: string, signal?: AbortSignal): AsyncIterable<NativeBatchLine> {
    const response = await get(ref, `/files/${encodeURIComponent(fileId)}/content`, signal);
    for await (const value of jsonLines(response.body)) {
      const line = v.parse(outputLineSchema, value);
      yield { customId: line.custom_id, read: (request) => readLine(provider, line, request) };
    }
  }

  return {
    async find({ marker, since }, signal) {
      for (let index = 0; index < (pool?.size ?? 1); index++) {
        const list = (path: string) => get({ id: '', keyIndex: index }, path, signal);
        const found = await findListed((after) => listPage(provider, list, after, signal), since, (batch) => batch.marker === marker);
        if (found) return { id: found.id, keyIndex: index, ...(pool ? { key: pool.fingerprint(index) } : {}), confirmed: true };
      }
      return undefined;
    },

    async submit(requests, signal, marker) {
      const keyIndex = pool?.take().index ?? 0;
      const key = pool?.fingerprint(keyIndex);
      const text = requests.map(({ customId, request }) => JSON.stringify({ custom_id: customId, method: 'POST', url: ENDPOINT, body: buildOpenAIRequest(request, config.compat, false) })).join('\n');
      const form = new FormData();
      form.append('purpose', 'batch');
      form.append('file', new Blob([text], { type: 'application/jsonl' }), 'svc-batch.jsonl');
      const { body, contentType } = await encodeMultipart(form);
      const uploaded = await postBody({ provider, http, url: `${base}/files`, headers: headers({ keyIndex }), body, contentType, signal, classify: classifyOpenAIError });
      const file = v.parse(idSchema, JSON.parse(uploaded.text));
      const created = await postJson({ provider, http, url: `${base}/batches`, headers: headers({ keyIndex }), body: { input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h', ...(marker === undefined ? {} : { metadata: { [MARKER_KEY]: marker } }) }, signal, classify: classifyOpenAIError });
      return { id: v.parse(idSchema, await readResponseJson(provider, created, signal)).id, keyIndex, ...(key === undefined ? {} : { key }) };
    },

    async status(ref, signal) {
      const { status } = await batch(ref, signal);
      return { state: running.has(status) ? 'in_progress' : status === 'cancelling' ? 'cancelling' : 'ended' };
    },

    async cancel(ref, signal) {
      const response = await postJson({ provider, http, url: `${base}/batches/${encodeURIComponent(ref.id)}/cancel`, headers: headers(ref), body: {}, signal, classify: classifyOpenAIError });
      await response.text();
    },

    async *results(ref, signal) {
      const ended = await batch(ref, signal);
      for (const fileId of [ended.output_file_id, ended.error_file_id]) if (fileId) yield* fileLines(ref, fileId, signal);
    },
  };
}

