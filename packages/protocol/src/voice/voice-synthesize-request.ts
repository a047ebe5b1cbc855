import * as v from 'valibot';
import { nonEmptyStr, obj, opt } from '../shared/fields.js';
import { parseRequestBody } from '../shared/parse-request-body.js';
import { OUTPUT_FORMAT_MESSAGE, OUTPUT_FORMAT_PATTERN } from './voice-fields.js';

/**
 * Most characters `/v1/voice/synthesize` reads at all: the longest any catalog model takes
 * (ElevenLabs Flash). Each model's own limit is checked against the catalog.
 */
export const MAX_SYNTHESIZE_TEXT_CHARS = 40_000;

const textMessage = `must be a string of 1 to ${MAX_SYNTHESIZE_TEXT_CHARS} characters`;

/** valibot schema of the `POST /v1/voice/synthesize` body; per-model checks come after (the catalog knows each model's voices, formats and length). */
export const voiceSynthesizeRequestSchema = obj({
  text: v.pipe(v.string(textMessage), v.minLength(1, textMessage), v.maxLength(MAX_SYNTHESIZE_TEXT_CHARS, textMessage)),
  model: nonEmptyStr(),
  voice: opt(nonEmptyStr()),
  output_format: opt(v.pipe(v.string(OUTPUT_FORMAT_MESSAGE), v.regex(OUTPUT_FORMAT_PATTERN, OUTPUT_FORMAT_MESSAGE))),
});

/** A `POST /v1/voice/synthesize` body in canonical names. */
export interface DecodedVoiceSynthesizeRequest {
  text: string;
  /** A text-to-speech model slug (`deepgram/aura-2`). */
  model: string;
  /** Absent: the model's default voice. */
  voice?: string;
  /** `<format>_<rate>`; absent: the model's default format. */
  outputFormat?: string;
}

/**
 * Validates the shape of a `POST /v1/voice/synthesize` body.
 *
 * @throws GatewayError 400 naming the field: a missing or empty `text` (or one beyond 40,000
 *   characters), a missing `model`, an empty `voice`, an `output_format` that is not `<format>_<rate>`.
 */
export function decodeVoiceSynthesizeRequest(body: unknown): DecodedVoiceSynthesizeRequest {
  const wire = parseRequestBody(voiceSynthesizeRequestSchema, body);
  const out: DecodedVoiceSynthesizeRequest = { text: wire.text, model: wire.model };
  if (wire.voice != null) out.voice = wire.voice;
  if (wire.output_format != null) out.outputFormat = wire.output_format;
  return out;
}
