import { ProviderError, kindFromStatus } from '@svc/core';
import * as v from 'valibot';
import type { NativeBatches, NativeBatchRef, ProviderChatRequest } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { getOk, jsonLines, postJson, readResponseJson } from '../shared/http.js';
import { batchKey } from '../shared/batch-key.js';
import { findListed } from '../shared/batch-find.js';
import type { KeyPool } from '../shared/key-pool.js';
import { parseAnthropicMessage } from './anthropic-chat.js';
import { classifyAnthropicError } from './anthropic-error.js';
import { buildAnthropicRequest } from './anthropic-request.js';

const PROVIDER = 'anthropic';
const batchSchema = v.object({ id: v.string(), processing_status: v.string(), results_url: v.nullish(v.string()) });
const resultSchema = v.object({
  custom_id: v.string(),
  result: v.object({ type: v.string(), message: v.optional(v.unknown()), error: v.optional(v.object({ error: v.optional(v.object({ type: v.optional(v.string()), message: v.optional(v.string()) })) })) }),
});

/** The HTTP status each Anthropic error type stands for (docs: errors), so an errored line fails as the interactive call would have. */
const errorStatus: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

const countsSchema = v.object({ processing: v.number(), succeeded: v.number(), errored: v.number(), canceled: v.number(), expired: v.number() });
const listSchema = v.object({
  data: v.array(v.object({ id: v.string(), created_at: v.string(), request_counts: countsSchema })),
  has_more: v.boolean(),
  last_id: v.nullish(v.string()),
});

type ResultLine = v.InferOutput<typeof resultSchema>;

/** A results line read for its request: the message, the error thrown, or undefined for `canceled` / `expired`. */
function readResult(line: ResultLine, request: ProviderChatRequest) {
  const { result } = line;
  if (result.type === 'succeeded') return parseAnthropicMessage(result.message, buildAnthropicRequest(request, false));
  if (result.type !== 'errored') return undefined;
  const error = result.error?.error ?? {};
  const status = errorStatus[error.type ?? ''] ?? 500;
  const classified = classifyAnthropicError(status, JSON.stringify({ type: 'error', error }));
  throw new ProviderError({ provider: PROVIDER, kind: classified.kind ?? kindFromStatus(status), message: classified.message ?? 'The request failed.', upstreamStatus: status, upstreamCode: classified.code });
}

/** What the batch calls share with the Messages adapter. */
export interface AnthropicBatchSettings {
  http: HttpClient;
  /** The base URL without `/v1`. */
  base: string;
  pool: KeyPool;
  headers: Record<string, string> | undefined;
  version: string;
}

/**
 * Anthropic's Message Batches: `POST /v1/messages/batches` with each request's Messages body as
 * `params`, `GET /v1/messages/batches/{id}` polls, the results JSONL at its `results_url` is read
 * as it streams. A Message Batch carries no metadata: `find` lists the key's Message Batches for
 * candidates of a lost submission, which the caller confirms by the custom ids of their results.
 */
export function anthropicBatches(settings: AnthropicBatchSettings): NativeBatches {
  const { http, pool } = settings;
  const url = `${settings.base}/v1/messages/batches`;
  const headers = (ref: Pick<NativeBatchRef, 'key' | 'keyIndex'>) => ({ 'anthropic-version': settings.version, ...settings.headers, 'x-api-key': batchKey(PROVIDER, pool, ref) });
  const get = (ref: NativeBatchRef, at: string, signal?: AbortSignal) => getOk({ provider: PROVIDER, http, url: at, headers: headers(ref), signal, classify: classifyAnthropicError });
  const batch = async (ref: NativeBatchRef, signal?: AbortSignal) => v.parse(batchSchema, await readResponseJson(PROVIDER, await get(ref, `${url}/${encodeURIComponent(ref.id)}`, signal), signal));

  /** One page of the key's Message Batches (newest first) as {@link findListed} reads it. */
  const listPage = async (keyIndex: number, after: string | undefined, signal?: AbortSignal) => {
    const at = `${url}?limit=100${after === undefined ? '' : `&after_id=${encodeURIComponent(after)}`}`;
    const page = v.parse(listSchema, await readResponseJson(PROVIDER, await get({ id: '', keyIndex }, at, signal), signal));
    const data = page.data.map(({ id, created_at: created, request_counts: counts }) => ({ id, createdAt: Date.parse(created) / 1000, requests: counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired }));
    return { data, next: page.has_more && page.last_id ? page.last_id : undefined };
  };

  return {
    // A Message Batch has no metadata: one of as many requests, created since the submission began, that `skip` leaves is a candidate (its results confirm it).
    async find({ since, requests, skip }, signal) {
      for (let index = 0; index < pool.size; index++) {
        const found = await findListed((after) => listPage(index, after, signal), since, async (batch) => batch.requests === requests && !(await skip(batch.id)));
        if (found) return { id: found.id, keyIndex: index, key: pool.fingerprint(index), confirmed: false };
      }
      return undefined;
    },

    async submit(requests, signal) {
      const { index } = pool.take();
      const body = { requests: requests.map(({ customId, request }) => ({ custom_id: customId, params: buildAnthropicRequest(request, false).body })) };
      const response = await postJson({ provider: PROVIDER, http, url, headers: headers({ keyIndex: index }), body, signal, classify: classifyAnthropicError });
      return { id: v.parse(batchSchema, await readResponseJson(PROVIDER, response, signal)).id, keyIndex: index, key: pool.fingerprint(index) };
    },

    async status(ref, signal) {
      const { processing_status: status } = await batch(ref, signal);
      return { state: status === 'ended' ? 'ended' : status === 'canceling' ? 'cancelling' : 'in_progress' };
    },

    async cancel(ref, signal) {
      const response = await postJson({ provider: PROVIDER, http, url: `${url}/${encodeURIComponent(ref.id)}/cancel`, headers: headers(ref), body: {}, signal, classify: classifyAnthropicError });
      await response.text();
    },

    async *results(ref, signal) {
      const ended = await batch(ref, signal);
      if (!ended.results_url) return;
      const response = await get(ref, ended.results_url, signal);
      for await (const value of jsonLines(response.body)) {
        const line = v.parse(resultSchema, value);
        yield { customId: line.custom_id, read: (request: ProviderChatRequest) => readResult(line, request) };
      }
    },
  };
}
