import { type Answer, type AnswerContext, jsonAnswer } from './answer.js';
import { estimateTokens } from './answer-text.js';
import { invalidRequest } from './faults.js';
import { asArray, asNumber, asString } from './json.js';

const DEFAULT_DIMENSIONS = 1536;
const MAX_CACHED = 512;
const cache = new Map<string, string>();

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic unit vector for `text`: the same input always embeds to the same vector. */
export function embeddingVector(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  let state = hash(text) || 1;
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const value = ((state >>> 0) / 0xffffffff) * 2 - 1;
    vector[i] = value;
    norm += value * value;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

function serialised(text: string, dimensions: number, base64: boolean): string {
  const key = `${dimensions}:${base64 ? 'b' : 'f'}:${text}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const vector = embeddingVector(text, dimensions);
  const out = base64
    ? `"${Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')}"`
    : `[${Array.from(vector).join(',')}]`;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, out);
  return out;
}

/**
 * `POST /v1/embeddings`: one deterministic unit vector per input (string, string[], token
 * array(s)); `dimensions` (default 1536); `encoding_format: "base64"` gives little-endian float32.
 */
export function openaiEmbeddings(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const model = asString(body['model']);
  if (model === undefined) {
    return invalidRequest('openai', 'you must provide a model parameter', ctx.id);
  }
  const raw = body['input'];
  const list = asArray(raw);
  const inputs: unknown[] =
    list === undefined
      ? [raw]
      : list.length > 0 && list.every((v) => typeof v === 'number')
        ? [list]
        : [...list];
  if (inputs.length === 0 || inputs.some((v) => v === undefined || v === '')) {
    return invalidRequest('openai', "'input' must be a non-empty string or array", ctx.id);
  }
  const dimensions = Math.floor(asNumber(body['dimensions']) ?? DEFAULT_DIMENSIONS);
  if (dimensions < 1 || dimensions > 8192) {
    return invalidRequest('openai', "'dimensions' must be between 1 and 8192", ctx.id);
  }
  const base64 = body['encoding_format'] === 'base64';
  let promptTokens = 0;
  const data = inputs.map((input, index) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    promptTokens += Array.isArray(input) ? input.length : estimateTokens(text.length);
    return `{"object":"embedding","index":${index},"embedding":${serialised(text, dimensions, base64)}}`;
  });
  return jsonAnswer(
    200,
    `{"object":"list","data":[${data.join(',')}],"model":${JSON.stringify(model)},"usage":{"prompt_tokens":${promptTokens},"total_tokens":${promptTokens}}}`,
    { 'x-request-id': `req_${ctx.id}` },
  );
}
