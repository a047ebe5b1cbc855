import { type Answer, type AnswerContext, jsonAnswer } from './answer.js';
import { invalidRequest } from './faults.js';
import { asRecord, asString } from './json.js';

/** Seconds of fake audio per byte, as the other transcription mocks: 1 kB per second. */
const BYTES_PER_SECOND = 1000;
const VOICE_ID = /^[A-Za-z0-9]{20}$/;
const OUTPUT_FORMAT = /^(mp3|opus|pcm|wav|ulaw|alaw)_\d+(?:_\d+)?$/;
const MAGIC: Readonly<Record<string, { magic: string; type: string }>> = {
  mp3: { magic: 'ID3', type: 'audio/mpeg' },
  opus: { magic: 'OggS', type: 'audio/ogg' },
  wav: { magic: 'RIFF', type: 'audio/wav' },
  pcm: { magic: '', type: 'application/octet-stream' },
  ulaw: { magic: '', type: 'application/octet-stream' },
  alaw: { magic: '', type: 'application/octet-stream' },
};

/** A FastAPI validation error naming a missing body field, as ElevenLabs answers one (422). */
function missing(field: string, id: string): Answer {
  return jsonAnswer(422, JSON.stringify({ detail: [{ loc: ['body', field], msg: 'field required', type: 'value_error.missing' }] }), { 'request-id': id });
}

/**
 * `POST /v1/text-to-speech/{voice_id}?output_format=...` with `{text, model_id}`: fake audio of the
 * format with its content type. A voice id that is not 20 letters and digits is `voice_not_found`.
 */
export function elevenlabsSpeech(voiceId: string) {
  return (body: Record<string, unknown>, ctx: AnswerContext): Answer => {
    const text = asString(body['text']);
    if (text === undefined) return missing('text', ctx.id);
    if (!VOICE_ID.test(voiceId)) {
      return jsonAnswer(400, JSON.stringify({ detail: { status: 'voice_not_found', message: `A voice with the voice_id ${voiceId} was not found.` } }), { 'request-id': ctx.id });
    }
    const format = ctx.query.get('output_format') ?? 'mp3_44100_128';
    if (!OUTPUT_FORMAT.test(format)) return invalidRequest('elevenlabs', `Invalid output_format '${format}'.`, ctx.id);
    const audio = MAGIC[format.slice(0, format.indexOf('_'))]!;
    return jsonAnswer(200, `${audio.magic}${'.'.repeat(text.length)}`, { 'content-type': audio.type, 'request-id': ctx.id, 'character-cost': String(text.length) });
  };
}

/**
 * `POST /v1/speech-to-text` (multipart `model_id`, `file`, optional `language_code`): the text
 * names the file; the language is the one asked for, else `eng`; one word ending at one second
 * per kB of the file.
 */
export function elevenlabsTranscription(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const file = asRecord(body['file']);
  const model = asString(body['model_id']);
  if (model === undefined) return missing('model_id', ctx.id);
  if (file === undefined) return missing('file', ctx.id);
  const end = Number(file['size'] ?? 0) / BYTES_PER_SECOND;
  const text = `Transcribed ${String(file['filename'] ?? 'audio')}.`;
  const language = asString(body['language_code']) ?? 'eng';
  return jsonAnswer(200, JSON.stringify({ language_code: language, language_probability: 0.98, text, words: [{ text, start: 0, end, type: 'word', speaker_id: 'speaker_0', logprob: -0.1 }] }), { 'request-id': ctx.id });
}
