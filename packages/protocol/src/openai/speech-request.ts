import * as v from 'valibot';
import { nonEmptyStr, num, obj, oneOf, opt, str } from '../shared/fields.js';
import { parseRequestBody } from '../shared/parse-request-body.js';

/** Most characters one speech request may hold (spec §Limits). */
export const MAX_SPEECH_INPUT_CHARS = 4096;

/** OpenAI's built-in voices (the first six are the ones every speech model has). */
export const speechVoices = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer', 'ash', 'ballad', 'coral', 'sage', 'verse', 'marin', 'cedar'] as const;
export const speechFormats = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;

export type SpeechVoice = (typeof speechVoices)[number];
export type SpeechResponseFormat = (typeof speechFormats)[number];

/** A validated speech request in canonical names. */
export interface DecodedSpeechRequest {
  model: string;
  /** 1..4096 characters. */
  input: string;
  voice: SpeechVoice;
  /** Default `mp3`. */
  responseFormat: SpeechResponseFormat;
  /** 0.25..4.0; absent means the upstream's default (1.0). */
  speed?: number;
  /** How to speak; only models that take it (`gpt-4o-mini-tts`). */
  instructions?: string;
}

const inputMessage = `must be a string of 1 to ${MAX_SPEECH_INPUT_CHARS} characters`;

/** valibot schema of the `POST /v1/audio/speech` body (spec §POST /v1/audio/speech). */
export const speechRequestSchema = obj({
  model: nonEmptyStr(),
  input: v.pipe(v.string(inputMessage), v.minLength(1, inputMessage), v.maxLength(MAX_SPEECH_INPUT_CHARS, inputMessage)),
  voice: oneOf(speechVoices),
  response_format: opt(oneOf(speechFormats)),
  speed: opt(num(0.25, 4)),
  instructions: opt(str()),
});

/**
 * Validates an OpenAI `POST /v1/audio/speech` body.
 *
 * @throws GatewayError 400 `invalid_request_error` naming the offending field (`input` beyond
 *   4096 characters, an unknown `voice` or `response_format`, `speed` outside 0.25..4.0).
 */
export function decodeSpeechRequest(body: unknown): DecodedSpeechRequest {
  const wire = parseRequestBody(speechRequestSchema, body);
  const out: DecodedSpeechRequest = { model: wire.model, input: wire.input, voice: wire.voice, responseFormat: wire.response_format ?? 'mp3' };
  if (wire.speed != null) out.speed = wire.speed;
  if (wire.instructions != null) out.instructions = wire.instructions;
  return out;
}
