import type { CallOptions, ModerationRequest, ModerationResult } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { postJson } from '../shared/http.js';
import { classifyOpenAIError } from './openai-error.js';
import { openAIModerationResponseSchema } from './openai-moderation-api.js';
import { readOpenAIAnswer } from './read-openai-answer.js';

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
    onResponse: options?.onResponse,
    classify: classifyOpenAIError,
  });
  const answer = { schema: openAIModerationResponseSchema, member: 'results', what: 'moderation' };
  const { id, model, results } = await readOpenAIAnswer(target.provider, response, answer, options?.signal);
  return { id, model: model ?? request.model, results };
}
