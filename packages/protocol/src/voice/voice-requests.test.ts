import { GatewayError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { decodeVoiceChatRequest } from './voice-chat-request.js';
import { decodeVoiceSynthesizeRequest } from './voice-synthesize-request.js';
import { decodeVoiceTranscribeRequest } from './voice-transcribe-request.js';

function form(fields: Record<string, string | Blob>, file: Blob | string | null = new Blob([new Uint8Array(10)], { type: 'audio/wav' }), part = 'file'): FormData {
  const out = new FormData();
  if (file instanceof Blob) out.append(part, file, 'hello.wav');
  else if (typeof file === 'string') out.append(part, file);
  for (const [name, value] of Object.entries(fields)) out.append(name, value);
  return out;
}

async function error(promise: Promise<unknown> | (() => unknown)): Promise<GatewayError> {
  const caught = await (typeof promise === 'function' ? Promise.resolve().then(promise) : promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(caught).toBeInstanceOf(GatewayError);
  return caught as GatewayError;
}

describe('decodeVoiceTranscribeRequest', () => {
  it('reads the audio (file or audio part), the model and the language as its primary code', async () => {
    const decoded = await decodeVoiceTranscribeRequest(form({ stt_model: 'deepgram/nova-3', language: 'en-US' }));
    expect(decoded).toMatchObject({ filename: 'hello.wav', fileType: 'audio/wav', sttModel: 'deepgram/nova-3', language: 'en' });
    expect(decoded.file.byteLength).toBe(10);
    expect(await decodeVoiceTranscribeRequest(form({}, new Blob(['x']), 'audio'))).toMatchObject({ filename: 'hello.wav' });
    expect(await decodeVoiceTranscribeRequest(form({ language: '' }))).not.toHaveProperty('language');
  });

  it.each([
    ['file', {}, null],
    ['file', {}, 'not a file'],
    ['stt_model', { stt_model: ' ' }, undefined],
    ['language', { language: 'english' }, undefined],
    ['language', { language: 'e' }, undefined],
    ['language', { language: new Blob(['en']) }, undefined],
  ] as const)('answers 400 naming %s for a bad value', async (param, fields, file) => {
    const failure = await error(decodeVoiceTranscribeRequest(form(fields, file === undefined ? undefined : file)));
    expect(failure).toMatchObject({ status: 400, type: 'invalid_request_error', param });
  });

  it('names the audio part that is not a file, and takes file over audio when both come', async () => {
    expect(await error(decodeVoiceTranscribeRequest(form({}, 'not a file', 'audio')))).toMatchObject({ status: 400, param: 'audio' });
    const both = form({}, new Blob([new Uint8Array(3)]), 'audio');
    both.append('file', new Blob([new Uint8Array(5)]), 'first.wav');
    expect(await decodeVoiceTranscribeRequest(both)).toMatchObject({ filename: 'first.wav' });
  });

  it('answers 413 above 25 MB', async () => {
    const big = new Blob([new Uint8Array(25 * 1024 * 1024 + 1)]);
    expect(await error(decodeVoiceTranscribeRequest(form({}, big)))).toMatchObject({ status: 413 });
  });
});

describe('decodeVoiceSynthesizeRequest', () => {
  it('reads text, model, voice and output format', () => {
    expect(decodeVoiceSynthesizeRequest({ text: 'Hi', model: 'deepgram/aura-2', voice: 'thalia-en', output_format: 'pcm_16000' })).toEqual({
      text: 'Hi',
      model: 'deepgram/aura-2',
      voice: 'thalia-en',
      outputFormat: 'pcm_16000',
    });
    expect(decodeVoiceSynthesizeRequest({ text: 'Hi', model: 'openai/tts-1', voice: null })).toEqual({ text: 'Hi', model: 'openai/tts-1' });
  });

  it.each([
    ['text', { text: '' }],
    ['text', { text: 'x'.repeat(40_001) }],
    ['text', { text: 42 }],
    ['model', { model: undefined }],
    ['model', { model: '' }],
    ['voice', { voice: '' }],
    ['output_format', { output_format: 'mp3' }],
    ['output_format', { output_format: 'MP3_44100' }],
    ['output_format', { output_format: 'mp3_44' }],
  ])('answers 400 naming %s for a bad value', async (param, change) => {
    const failure = await error(() => decodeVoiceSynthesizeRequest({ text: 'Hi', model: 'deepgram/aura-2', ...change }));
    expect(failure).toMatchObject({ status: 400, param });
  });

  it('answers 400 for a body that is not an object', async () => {
    expect(await error(() => decodeVoiceSynthesizeRequest([]))).toMatchObject({ status: 400, param: null });
  });
});

describe('decodeVoiceChatRequest', () => {
  it('reads every part', async () => {
    const decoded = await decodeVoiceChatRequest(
      form({ language: 'DE', stt_model: 'openai/whisper-1', tts_model: 'elevenlabs/eleven_flash_v2_5', provider: 'elevenlabs', voice: 'JBFqnCBsd6RMkjVDRZzb', output_format: 'mp3_44100', model: 'svc/auto-speed', system: 'Be brief.', conversation_id: 'conv-9' }),
    );
    expect(decoded).toMatchObject({ language: 'de', sttModel: 'openai/whisper-1', ttsModel: 'elevenlabs/eleven_flash_v2_5', provider: 'elevenlabs', voice: 'JBFqnCBsd6RMkjVDRZzb', outputFormat: 'mp3_44100', model: 'svc/auto-speed', system: 'Be brief.', conversationId: 'conv-9' });
  });

  it.each([
    ['language', {}],
    ['language', { language: 'Deutsch!' }],
    ['provider', { language: 'en', provider: 'Deep Gram' }],
    ['tts_model', { language: 'en', tts_model: '' }],
    ['model', { language: 'en', model: 'x'.repeat(201) }],
    ['voice', { language: 'en', voice: ' ' }],
    ['output_format', { language: 'en', output_format: 'wav' }],
    ['system', { language: 'en', system: 'x'.repeat(8_001) }],
    ['conversation_id', { language: 'en', conversation_id: '' }],
  ])('answers 400 naming %s for a bad value', async (param, fields) => {
    expect(await error(decodeVoiceChatRequest(form(fields)))).toMatchObject({ status: 400, param });
  });

  it('answers 400 naming file without an audio part', async () => {
    expect(await error(decodeVoiceChatRequest(form({ language: 'en' }, null)))).toMatchObject({ status: 400, param: 'file' });
  });
});
