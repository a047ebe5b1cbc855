import { parseRequestBody } from '../shared/parse-request-body.js';
import { embeddingsRequestSchema } from './embeddings-request-schema.js';

/** A validated embeddings request in canonical names. */
export interface DecodedEmbeddingsRequest {
  /** A slug, a bare upstream name, or `auto` / `svc/auto`. */
  model: string;
  /** The texts, in the caller's order (a single string becomes one text). */
  input: string[];
  /** Vector length; absent means the model's default. */
  dimensions?: number;
  user?: string;
  encodingFormat: 'float' | 'base64';
}

/**
 * Validates an OpenAI `POST /v1/embeddings` body. `input` is a string or an array of strings
 * (token-id arrays and empty strings are refused with 400); `encoding_format` defaults to `float`.
 *
 * @throws GatewayError 400 `invalid_request_error` naming the offending field.
 */
export function decodeEmbeddingsRequest(body: unknown): DecodedEmbeddingsRequest {
  const wire = parseRequestBody(embeddingsRequestSchema, body);
  const out: DecodedEmbeddingsRequest = {
    model: wire.model,
    input: typeof wire.input === 'string' ? [wire.input] : wire.input,
    encodingFormat: wire.encoding_format ?? 'float',
  };
  if (wire.dimensions != null) out.dimensions = wire.dimensions;
  if (wire.user != null) out.user = wire.user;
  return out;
}
