import { type Answer, type AnswerContext, jsonAnswer } from './answer.js';
import { invalidRequest } from './faults.js';
import { asRecord, asString } from './json.js';

const FORMATS = new Set(['json', 'text', 'srt', 'verbose_json', 'vtt']);

/** Seconds of fake audio per byte: 1 kB per second, so tests can tell a reported duration from an estimate. */
const BYTES_PER_SECOND = 1000;

function timestamp(seconds: number, separator: ',' | '.'): string {
  const whole = Math.floor(seconds);
  const ms = Math.round((seconds - whole) * 1000);
  const hh = String(Math.floor(whole / 3600)).padStart(2, '0');
  const mm = String(Math.floor((whole % 3600) / 60)).padStart(2, '0');
  const ss = String(whole % 60).padStart(2, '0');
  return `${hh}:${mm}:${ss}${separator}${String(ms).padStart(3, '0')}`;
}

/**
 * `POST /v1/audio/transcriptions` and `/v1/audio/translations` (multipart): a fixed sentence
 * naming the file, in the requested `response_format` with its content type; `verbose_json`
 * reports `duration` as one second per kB of the file.
 */
export function openaiTranscriptions(task: 'transcribe' | 'translate') {
  return (body: Record<string, unknown>, ctx: AnswerContext): Answer => {
    const file = asRecord(body['file']);
    const model = asString(body['model']);
    const format = asString(body['response_format']) ?? 'json';
    if (file === undefined) return invalidRequest('openai', "'file' is required (multipart/form-data)", ctx.id);
    if (model === undefined) return invalidRequest('openai', 'you must provide a model parameter', ctx.id);
    if (!FORMATS.has(format)) return invalidRequest('openai', `'response_format' must be one of ${[...FORMATS].join(', ')}`, ctx.id);
    const text = `Transcribed ${String(file['filename'] ?? 'audio')}.`;
    const duration = Number(file['size'] ?? 0) / BYTES_PER_SECOND;
    const headers = { 'x-request-id': `req_${ctx.id}` };
    switch (format) {
      case 'text':
        return jsonAnswer(200, `${text}\n`, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      case 'srt':
        return jsonAnswer(200, `1\n${timestamp(0, ',')} --> ${timestamp(duration, ',')}\n${text}\n\n`, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      case 'vtt':
        return jsonAnswer(200, `WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(duration, '.')}\n${text}\n\n`, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      case 'verbose_json': {
        const language = task === 'translate' ? 'english' : (asString(body['language']) ?? 'english');
        const segments = [{ id: 0, seek: 0, start: 0, end: duration, text, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0 }];
        return jsonAnswer(200, JSON.stringify({ task, language, duration, text, segments }), headers);
      }
      default:
        return jsonAnswer(200, JSON.stringify({ text }), headers);
    }
  };
}
