import type { CallOptions, ImageGenerationRequest, ImageGenerationResult } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { type ErrorClassification, postJson } from '../shared/http.js';
import { type OpenAIImagesRequestBody, openAIImagesResponseSchema } from './openai-images-api.js';
import { readOpenAIAnswer } from './read-openai-answer.js';

/** Where one `/images/generations` call goes (OpenAI, or an Azure deployment). */
export interface OpenAIImagesTarget {
  provider: string;
  http: HttpClient;
  /** Full `/images/generations` URL. */
  url: string;
  headers: Record<string, string>;
  /** The `model` sent (an Azure deployment name where it differs from the model's). */
  model: string;
  classify: (status: number, body: string) => ErrorClassification;
}

/** GPT image models (`gpt-image-1`, ...) take other options than DALL·E and always answer base64. */
export function isGptImageModel(model: string): boolean {
  return model.startsWith('gpt-image');
}

/** The `/images/generations` body: only the fields the request sets, and base64 asked of DALL·E. */
export function buildOpenAIImagesBody(request: ImageGenerationRequest, model: string): OpenAIImagesRequestBody {
  const body: OpenAIImagesRequestBody = { model, prompt: request.prompt, n: request.n };
  if (request.size !== undefined) body.size = request.size;
  if (request.quality !== undefined) body.quality = request.quality;
  if (request.style !== undefined) body.style = request.style;
  if (request.user !== undefined) body.user = request.user;
  if (!isGptImageModel(request.model)) {
    body.response_format = 'b64_json';
    return body;
  }
  if (request.outputFormat !== undefined) body.output_format = request.outputFormat;
  if (request.background !== undefined) body.background = request.background;
  if (request.moderation !== undefined) body.moderation = request.moderation;
  if (request.outputCompression !== undefined) body.output_compression = request.outputCompression;
  return body;
}

/**
 * POSTs one `/images/generations` request and reads the images as base64. Upstream errors keep
 * their kinds: a refused prompt (`content_policy_violation`, `moderation_blocked`) is the
 * caller's `content_filter`, 429 a rate limit, 5xx a server fault. An answer without base64
 * images is a malformed (retryable) answer.
 */
export async function openAIGenerateImages(target: OpenAIImagesTarget, request: ImageGenerationRequest, options: CallOptions | undefined): Promise<ImageGenerationResult> {
  const response = await postJson({
    provider: target.provider,
    http: target.http,
    url: target.url,
    headers: target.headers,
    body: buildOpenAIImagesBody(request, target.model),
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: target.classify,
  });
  const answer = { schema: openAIImagesResponseSchema, member: 'data', what: 'image answer' };
  const { created, data, usage } = await readOpenAIAnswer(target.provider, response, answer, options?.signal);
  const result: ImageGenerationResult = {
    created,
    images: data.map((image) => (image.revised_prompt == null ? { b64Json: image.b64_json } : { b64Json: image.b64_json, revisedPrompt: image.revised_prompt })),
  };
  if (usage) {
    result.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
    const details = usage.input_tokens_details;
    if (details?.text_tokens != null) result.usage.textTokens = details.text_tokens;
    if (details?.image_tokens != null) result.usage.imageTokens = details.image_tokens;
  }
  return result;
}
