import * as v from 'valibot';
import { nonEmptyStr, obj, opt } from '../shared/fields.js';
import { parseRequestBody } from '../shared/parse-request-body.js';

/** One part of the multimodal moderation input (OpenAI `omni-moderation` models). */
export type ModerationPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A validated moderations request. */
export interface DecodedModerationsRequest {
  /** A slug or bare upstream name; absent means the catalog's default moderation model. */
  model?: string;
  /** One text, several texts (one verdict each), or one multimodal input of parts. */
  input: string | string[] | ModerationPart[];
}

const inputMessage = 'must be a string, a non-empty array of strings, or a non-empty array of text and image_url parts';
const partSchema = v.variant(
  'type',
  [
    v.object({ type: v.literal('text'), text: v.string('must be a string') }),
    v.object({ type: v.literal('image_url'), image_url: v.object({ url: nonEmptyStr() }, 'must be an object with a url') }),
  ],
  "must be a part of type 'text' or 'image_url'",
);

/** Strings or parts, decided by the first element; an empty array is refused. */
const inputSchema = v.lazy((input) => {
  if (!Array.isArray(input)) return v.string(inputMessage);
  const strings = input.length > 0 && typeof input[0] === 'string';
  return strings
    ? v.pipe(v.array(v.string('must be a string'), inputMessage), v.minLength(1, inputMessage))
    : v.pipe(v.array(partSchema, inputMessage), v.minLength(1, inputMessage));
});

/** valibot schema of the `POST /v1/moderations` body (spec §POST /v1/moderations). */
export const moderationsRequestSchema = obj({ model: opt(nonEmptyStr()), input: inputSchema });

/**
 * Validates an OpenAI `POST /v1/moderations` body.
 *
 * @throws GatewayError 400 `invalid_request_error` naming the offending field.
 */
export function decodeModerationsRequest(body: unknown): DecodedModerationsRequest {
  const wire = parseRequestBody(moderationsRequestSchema, body);
  return wire.model == null ? { input: wire.input } : { model: wire.model, input: wire.input };
}
