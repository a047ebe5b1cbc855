import { type Answer, type AnswerContext, jsonAnswer } from './answer.js';
import { invalidRequest } from './faults.js';
import { asNumber, asString } from './json.js';

/** Seconds of fake audio per byte, as the OpenAI transcription mock: 1 kB per second. */
const BYTES_PER_SECOND = 1000;
const LISTEN_MODELS = new Set(['nova-3', 'nova-2', 'nova', 'enhanced', 'base']);
/** Deepgram Aura: `aura-<voice>-<lang>` or `aura-2-<voice>-<lang>`. */
const SPEAK_MODEL = /^aura(?:-2)?-[a-z]+-[a-z]{2}$/;
/** First bytes of each `encoding` (and container), then one filler byte per character. */
function audioOf(encoding: string, container: string | null): { magic: string; type: string } | undefined {
  switch (encoding) {
    case 'mp3':
      return { magic: 'ID3', type: 'audio/mpeg' };
    case 'opus':
      return { magic: 'OggS', type: 'audio/ogg' };
    case 'flac':
      return { magic: 'fLaC', type: 'audio/flac' };
    case 'aac':
      return { magic: 'ADIF', type: 'audio/aac' };
    case 'linear16':
    case 'mulaw':
    case 'alaw':
      return container === 'wav' ? { magic: 'RIFF', type: 'audio/wav' } : { magic: '', type: 'application/octet-stream' };
    default:
      return undefined;
  }
}

/**
 * `POST /v1/listen` (pre-recorded): the audio is the body (`bytes` of it); `model`, `language`,
 * `detect_language` in the query. Answers Deepgram's shape with a fixed sentence naming the size,
 * a duration of one second per kB and, when asked to detect, `detected_language` (the asked
 * language, else `en`).
 */
export function deepgramListen(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const bytes = asNumber(body['bytes']) ?? 0;
  const model = ctx.query.get('model') ?? 'base';
  if (!LISTEN_MODELS.has(model)) return invalidRequest('deepgram', `No such model/language/tier combination found: model=${model}`, ctx.id);
  if (bytes === 0) return invalidRequest('deepgram', 'Bad Request: failed to process audio: corrupt or unsupported data', ctx.id);
  const language = ctx.query.get('language');
  const detect = ctx.query.get('detect_language') === 'true';
  const duration = bytes / BYTES_PER_SECOND;
  const channel = { alternatives: [{ transcript: `Transcribed ${bytes} bytes of audio.`, confidence: 0.99, words: [] }], ...(detect ? { detected_language: language ?? 'en', language_confidence: 0.97 } : {}) };
  return jsonAnswer(200, JSON.stringify({ metadata: { request_id: ctx.id, created: new Date(ctx.created * 1000).toISOString(), duration, channels: 1, models: [model] }, results: { channels: [channel] } }), { 'dg-request-id': ctx.id });
}

/**
 * `POST /v1/speak` with `{text}`: fake audio of the query's `encoding` (and `container`) with its
 * content type; checks the Aura model name and the text (1 to 2,000 characters) like the real API.
 */
export function deepgramSpeak(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const text = asString(body['text']);
  const model = ctx.query.get('model') ?? 'aura-asteria-en';
  if (!SPEAK_MODEL.test(model)) return invalidRequest('deepgram', `Invalid model '${model}'`, ctx.id);
  if (text === undefined || text.length === 0 || text.length > 2000) return invalidRequest('deepgram', 'Text must be 1 to 2000 characters.', ctx.id);
  const encoding = ctx.query.get('encoding') ?? 'linear16';
  const audio = audioOf(encoding, ctx.query.get('container') ?? (encoding === 'linear16' ? 'wav' : null));
  if (!audio) return invalidRequest('deepgram', `Unsupported encoding '${encoding}'`, ctx.id);
  return jsonAnswer(200, `${audio.magic}${'.'.repeat(text.length)}`, { 'content-type': audio.type, 'dg-request-id': ctx.id, 'dg-char-count': String(text.length) });
}
