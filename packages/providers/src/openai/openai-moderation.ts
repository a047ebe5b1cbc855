import { ProviderError } from '@svc/core';
import * as v from 'valibot';
import type { CallOptions, ModerationRequest, ModerationResult } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { isRecord, postJson, readResponseJson } from '../shared/http.js';
import { classifyOpenAIError, openAIPayloadError } from './openai-error.js';
import { openAIModerationResponseSchema } from './openai-moderation-api.js';

/** Where one `/moderations` call goes. */
export interface OpenAIModerationTarget {
  provider: string;
  http: HttpClient;
  /** Full `/moderations` URL. */
  url: string;
  headers: Record<string, string>;
}

/** POSTs one `/moderations` request and reads the verdicts, one per input, in input order. */
export async function openAIModerate(target: OpenAIModerationTarget, request: ModerationRequest, options: CallOptions | undefined): Promise<ModerationResult> {
  const response = await postJson({
    provider: target.provider,
    http: target.http,
    url: target.url,
    headers: target.headers,
    body: { model: request.model, input: request.input },
    signal: options?.signal,
    classify: classifyOpenAIError,
  });
  const json = await readResponseJson(target.provider, response, options?.signal);
  if (isRecord(json) && json.error != null && json.results === undefined) throw openAIPayloadError(target.provider, json);
  const parsed = v.safeParse(openAIModerationResponseSchema, json);
  if (!parsed.success) {
    throw new ProviderError({
      provider: target.provider,
      kind: 'server',
      message: `${target.provider} sent a malformed moderation: ${v.summarize(parsed.issues)}`,
      upstreamStatus: response.status,
    });
  }
  const { id, model, results } = parsed.output;
  return { id, model: model ?? request.model, results };
}
