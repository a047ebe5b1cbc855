import { type Answer, type AnswerContext, type JsonAnswer, jsonAnswer } from './answer.js';
import { invalidRequest } from './faults.js';
import { asNumber, asString } from './json.js';
import { colourOf, hexOf, solidPng } from './png.js';

interface ModelRules {
  maxN: number;
  sizes: readonly string[];
  qualities: readonly string[];
  maxPrompt: number;
  gptImage: boolean;
}

// As the real API states them (dall-e-2 takes `quality: standard` only).
const RULES: Readonly<Record<string, ModelRules>> = {
  'dall-e-2': { maxN: 10, sizes: ['256x256', '512x512', '1024x1024'], qualities: ['standard'], maxPrompt: 1000, gptImage: false },
  'dall-e-3': { maxN: 1, sizes: ['1024x1024', '1024x1792', '1792x1024'], qualities: ['standard', 'hd'], maxPrompt: 4000, gptImage: false },
  'gpt-image-1': { maxN: 10, sizes: ['1024x1024', '1024x1536', '1536x1024', 'auto'], qualities: ['low', 'medium', 'high', 'auto'], maxPrompt: 32_000, gptImage: true },
};

/** gpt-image-1's output tokens per image, by quality, for square and for portrait/landscape images (OpenAI's pricing page). */
const OUTPUT_TOKENS: Readonly<Record<string, readonly [number, number]>> = { low: [272, 408], medium: [1056, 1584], high: [4160, 6240] };

/** A prompt containing this word is refused by the mock's "safety system". */
export const REFUSED_WORD = 'forbidden';

function refusal(gptImage: boolean, id: string): JsonAnswer {
  const error = gptImage
    ? { message: `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID req_${id}.`, type: 'image_generation_user_error', param: null, code: 'moderation_blocked' }
    : { message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' };
  return jsonAnswer(400, JSON.stringify({ error }), { 'x-request-id': `req_${id}` });
}

/** The parameter check of the real API: the first problem as its 400 message, else undefined. */
function problem(body: Record<string, unknown>, model: string, rules: ModelRules): string | undefined {
  const prompt = asString(body['prompt']);
  if (prompt === undefined || prompt.length === 0) return "Missing required parameter: 'prompt'.";
  if (prompt.length > rules.maxPrompt) return `Invalid 'prompt': string too long. Expected a string with maximum length ${rules.maxPrompt}, but got a string with length ${prompt.length} instead.`;
  const n = body['n'] === undefined ? 1 : asNumber(body['n']);
  if (n === undefined || !Number.isInteger(n) || n < 1 || n > rules.maxN) return `Invalid 'n': ${model} takes 1 to ${rules.maxN} images.`;
  const size = asString(body['size']);
  if (body['size'] !== undefined && (size === undefined || !rules.sizes.includes(size))) return `Invalid value: '${String(body['size'])}'. Supported values are: ${rules.sizes.map((s) => `'${s}'`).join(', ')}.`;
  const quality = asString(body['quality']);
  if (body['quality'] !== undefined && (quality === undefined || !rules.qualities.includes(quality))) return `Invalid 'quality' for ${model}: '${String(body['quality'])}'.`;
  if (body['style'] !== undefined && model !== 'dall-e-3') return "Unknown parameter: 'style'.";
  if (rules.gptImage && body['response_format'] !== undefined) return "Unknown parameter: 'response_format'.";
  const format = body['response_format'];
  if (format !== undefined && format !== 'url' && format !== 'b64_json') return `Invalid 'response_format': '${String(format)}'. Supported values are: 'url' and 'b64_json'.`;
  return undefined;
}

/**
 * `POST /v1/images/generations`: `n` small real PNGs (8x8, one colour per prompt and index) as
 * base64 or as URLs the mock serves (`GET /v1/images/mock/<rrggbb>.png`), with a revised prompt
 * from dall-e-3, and gpt-image-1's token usage (always base64, PNG whatever `output_format`
 * says). The model's parameters are checked like the real API's; a prompt with the word
 * `forbidden` is refused (`content_policy_violation`, or `moderation_blocked` for gpt-image-1).
 * The default model is dall-e-2, as upstream.
 */
export function openaiImages(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const model = asString(body['model']) ?? 'dall-e-2';
  const rules = RULES[model];
  if (rules === undefined) return invalidRequest('openai', `The model '${model}' does not exist or you do not have access to it.`, ctx.id);
  const bad = problem(body, model, rules);
  if (bad !== undefined) return invalidRequest('openai', bad, ctx.id);
  const prompt = body['prompt'] as string;
  if (prompt.toLowerCase().includes(REFUSED_WORD)) return refusal(rules.gptImage, ctx.id);
  const n = (body['n'] as number | undefined) ?? 1;
  const base64 = rules.gptImage || body['response_format'] === 'b64_json';
  const data = Array.from({ length: n }, (_, index) => {
    const colour = colourOf(`${prompt}#${index}`);
    const image: Record<string, string> = base64 ? { b64_json: solidPng(colour).toString('base64') } : { url: `${ctx.origin}/v1/images/mock/${hexOf(colour)}.png` };
    if (model === 'dall-e-3') image['revised_prompt'] = `A detailed, vivid illustration of ${prompt}`;
    return image;
  });
  const answer: Record<string, unknown> = { created: ctx.created, data };
  if (rules.gptImage) {
    const quality = asString(body['quality']) ?? 'auto';
    const size = asString(body['size']) ?? 'auto';
    const drawnQuality = quality === 'auto' ? 'medium' : quality;
    const drawnSize = size === 'auto' ? '1024x1024' : size;
    const [square, oblong] = OUTPUT_TOKENS[drawnQuality] ?? [0, 0];
    const inputTokens = Math.max(1, Math.ceil(prompt.length / 4));
    const outputTokens = n * (drawnSize === '1024x1024' ? square : oblong);
    Object.assign(answer, {
      background: 'opaque',
      output_format: 'png',
      quality: drawnQuality,
      size: drawnSize,
      usage: { input_tokens: inputTokens, input_tokens_details: { text_tokens: inputTokens, image_tokens: 0 }, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    });
  }
  return jsonAnswer(200, JSON.stringify(answer), { 'x-request-id': `req_${ctx.id}` });
}
