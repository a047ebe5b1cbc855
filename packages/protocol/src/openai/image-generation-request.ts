import { invalidRequest } from '@svc/core';
import { bool, int, nonEmptyStr, obj, oneOf, opt, str } from '../shared/fields.js';
import { parseRequestBody } from '../shared/parse-request-body.js';
import { checkImageOptions, imageModelRules } from './image-model-rules.js';

/** Most images one request may ask for (spec §Limits: image `n` 1..10; the newer model 1). */
export const MAX_IMAGES_PER_REQUEST = 10;

export const imageResponseFormats = ['url', 'b64_json'] as const;
export type ImageResponseFormat = (typeof imageResponseFormats)[number];

/** A validated image-generation request in canonical names, the model's defaults filled in. */
export interface DecodedImageGenerationRequest {
  /** As sent; absent means the endpoint's default (DALL·E 3). */
  model?: string;
  prompt: string;
  /** 1..10; DALL·E 3: 1. Default 1. */
  n: number;
  /** The requested size, else the model's default (`1024x1024`; `auto` for gpt-image-1). */
  size?: string;
  /** The requested quality, else the model's default (`standard` for DALL·E 3, `auto` for gpt-image-1); none for DALL·E 2. */
  quality?: string;
  style?: 'vivid' | 'natural';
  /** How the client gets each image: a gateway URL (default) or base64 in the body. */
  responseFormat: ImageResponseFormat;
  user?: string;
  outputFormat?: 'png' | 'jpeg' | 'webp';
  background?: 'transparent' | 'opaque' | 'auto';
  moderation?: 'low' | 'auto';
  outputCompression?: number;
}

/** valibot schema of the `POST /v1/images/generations` body: types and the limits every model shares. */
export const imageGenerationRequestSchema = obj({
  prompt: nonEmptyStr(),
  model: opt(nonEmptyStr()),
  n: opt(int(1, MAX_IMAGES_PER_REQUEST)),
  size: opt(nonEmptyStr()),
  quality: opt(oneOf(['standard', 'hd', 'low', 'medium', 'high', 'auto'])),
  style: opt(oneOf(['vivid', 'natural'])),
  response_format: opt(oneOf(imageResponseFormats)),
  user: opt(str()),
  output_format: opt(oneOf(['png', 'jpeg', 'webp'])),
  background: opt(oneOf(['transparent', 'opaque', 'auto'])),
  moderation: opt(oneOf(['low', 'auto'])),
  output_compression: opt(int(0, 100)),
  stream: opt(bool()),
});

/**
 * Validates an OpenAI `POST /v1/images/generations` body against the limits every image model
 * shares, then against the named model's own (DALL·E 3 when none is named), and fills in the
 * model's default size and quality.
 *
 * @throws GatewayError 400 `invalid_request_error` naming the param: a missing `prompt`, `n`
 *   outside 1..10 or above the model's most, a size, quality or style the model does not take,
 *   an unknown `response_format`, `stream: true` (image streams are not served).
 */
export function decodeImageGenerationRequest(body: unknown): DecodedImageGenerationRequest {
  const wire = parseRequestBody(imageGenerationRequestSchema, body);
  if (wire.stream === true) throw invalidRequest('Streaming image generation is not supported; omit `stream` or set it to false.', 'stream');
  const rules = imageModelRules(wire.model ?? undefined);
  const n = wire.n ?? 1;
  checkImageOptions(rules, { ...wire, n });
  const out: DecodedImageGenerationRequest = { prompt: wire.prompt, n, responseFormat: wire.response_format ?? 'url' };
  if (wire.model != null) out.model = wire.model;
  const size = wire.size ?? rules.defaultSize;
  if (size !== undefined) out.size = size;
  const quality = wire.quality ?? rules.defaultQuality;
  if (quality !== undefined) out.quality = quality;
  if (wire.style != null) out.style = wire.style;
  if (wire.user != null) out.user = wire.user;
  if (wire.output_format != null) out.outputFormat = wire.output_format;
  if (wire.background != null) out.background = wire.background;
  if (wire.moderation != null) out.moderation = wire.moderation;
  if (wire.output_compression != null) out.outputCompression = wire.output_compression;
  return out;
}
