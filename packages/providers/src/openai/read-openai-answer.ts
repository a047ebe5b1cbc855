import { ProviderError } from '@svc/core';
import * as v from 'valibot';
import type { HttpResponse } from '../shared/http-client.js';
import { isRecord, readResponseJson } from '../shared/http.js';
import { openAIPayloadError } from './openai-error.js';

/**
 * Reads a 2xx OpenAI answer as JSON checked against `schema`. An `{error}` body without the
 * answer's own `member` is the upstream's error (classified like an error status); a body off
 * the schema is a malformed answer, a retryable `server` fault.
 */
export async function readOpenAIAnswer<const S extends v.GenericSchema>(
  provider: string,
  response: HttpResponse,
  expected: { schema: S; member: string; what: string },
  signal: AbortSignal | undefined,
): Promise<v.InferOutput<S>> {
  const json = await readResponseJson(provider, response, signal);
  if (isRecord(json) && json.error != null && json[expected.member] === undefined) throw openAIPayloadError(provider, json);
  const parsed = v.safeParse(expected.schema, json);
  if (!parsed.success) {
    throw new ProviderError({ provider, kind: 'server', message: `${provider} sent a malformed ${expected.what}: ${v.summarize(parsed.issues)}`, upstreamStatus: response.status });
  }
  return parsed.output;
}
