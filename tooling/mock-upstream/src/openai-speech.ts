import { type Answer, type AnswerContext, jsonAnswer } from './answer.js';
import { invalidRequest } from './faults.js';
import { asNumber, asString } from './json.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
/** The first bytes of each format, so a client can tell what it got; the rest is filler. */
const MAGIC: Readonly<Record<string, string>> = { mp3: 'ID3', opus: 'OggS', aac: 'ADIF', flac: 'fLaC', wav: 'RIFF', pcm: '' };

/**
 * `POST /v1/audio/speech`: fake audio of the requested format (its magic bytes, then one filler
 * byte per input character), with that format's content type. Checks `model`, `input`, `voice`,
 * `response_format` and `speed` like the real API.
 */
export function openaiSpeech(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const model = asString(body['model']);
  const input = asString(body['input']);
  const voice = asString(body['voice']);
  const format = asString(body['response_format']) ?? 'mp3';
  const speed = body['speed'] === undefined ? 1 : asNumber(body['speed']);
  if (model === undefined) return invalidRequest('openai', 'you must provide a model parameter', ctx.id);
  if (input === undefined || input.length === 0 || input.length > 4096) return invalidRequest('openai', "'input' must be 1 to 4096 characters", ctx.id);
  if (voice === undefined) return invalidRequest('openai', "'voice' is required", ctx.id);
  const contentType = CONTENT_TYPES[format];
  if (contentType === undefined) return invalidRequest('openai', `'response_format' must be one of ${Object.keys(CONTENT_TYPES).join(', ')}`, ctx.id);
  if (speed === undefined || speed < 0.25 || speed > 4) return invalidRequest('openai', "'speed' must be between 0.25 and 4.0", ctx.id);
  const audio = `${MAGIC[format] ?? ''}${'.'.repeat(input.length)}`;
  return jsonAnswer(200, audio, { 'content-type': contentType, 'x-request-id': `req_${ctx.id}` });
}
