import { describe, expect, it } from 'vitest';
import { MAX_AUDIO_FILE_BYTES, decodeTranscriptionRequest } from './transcriptions-request.js';

function form(fields: Record<string, string>, bytes = 10): FormData {
  const out = new FormData();
  out.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/mpeg' }), 'a.mp3');
  for (const [name, value] of Object.entries(fields)) out.append(name, value);
  return out;
}

describe('decodeTranscriptionRequest', () => {
  it('reads the file and fields, defaults to json, drops language on translations', async () => {
    const decoded = await decodeTranscriptionRequest(form({ model: 'whisper-1', language: 'de', prompt: 'p', temperature: '0.3', response_format: 'srt' }), 'transcription');
    expect(decoded).toMatchObject({ task: 'transcription', model: 'whisper-1', filename: 'a.mp3', fileType: 'audio/mpeg', language: 'de', prompt: 'p', temperature: 0.3, responseFormat: 'srt' });
    expect(decoded.file.byteLength).toBe(10);
    const translation = await decodeTranscriptionRequest(form({ model: 'whisper-1', language: 'de' }), 'translation');
    expect(translation).toMatchObject({ responseFormat: 'json' });
    expect(translation.language).toBeUndefined();
  });

  it.each([
    ['model', {}],
    ['response_format', { model: 'whisper-1', response_format: 'mp3' }],
    ['temperature', { model: 'whisper-1', temperature: '1.5' }],
    ['temperature', { model: 'whisper-1', temperature: 'warm' }],
  ])('refuses a bad %s with 400', async (param, fields) => {
    await expect(decodeTranscriptionRequest(form(fields), 'transcription')).rejects.toMatchObject({ status: 400, param });
  });

  it('answers 400 without a file and 413 above 25 MB', async () => {
    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    await expect(decodeTranscriptionRequest(noFile, 'transcription')).rejects.toMatchObject({ status: 400, param: 'file' });
    await expect(decodeTranscriptionRequest(form({ model: 'whisper-1' }, MAX_AUDIO_FILE_BYTES + 1), 'transcription')).rejects.toMatchObject({ status: 413 });
  });
});
