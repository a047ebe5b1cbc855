import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

// Voice providers configured at an address nothing answers: everything here is refused before any call.
const master = 'sk-svc-voice-route-test-master-fvEjFhPdYlom7APQOi2gei5t';
const nowhere = 'http://127.0.0.1:9';
const test = useTestApp(master, { DEEPGRAM_API_KEY: 'dg', DEEPGRAM_BASE_URL: nowhere, ELEVENLABS_API_KEY: 'xi', ELEVENLABS_BASE_URL: nowhere });

interface ErrorBody {
  error: { type: string; code: string | null; param: string | null; message: string };
}

function upload(path: string, fields: Record<string, string>, options: { bytes?: number; key?: string | null; headers?: Record<string, string>; part?: string } = {}) {
  const form = new FormData();
  if (options.bytes !== 0) form.append(options.part ?? 'file', new Blob([new Uint8Array(options.bytes ?? 100)], { type: 'audio/wav' }), 'a.wav');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const key = options.key === undefined ? master : options.key;
  const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...options.headers };
  return Promise.resolve(test.app.request(path, { method: 'POST', headers, body: form }));
}

/** A model of the wrong kind or unknown is 404 `model_not_found`; every other bad field 400. */
const statusFor = (param: string): number => (['model', 'stt_model', 'tts_model'].includes(param) ? 404 : 400);

async function expectError(response: Response, status: number, param: string | null) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-error-id')).toBeTruthy();
  const body = (await response.json()) as ErrorBody;
  expect(body.error.param).toBe(param);
  return body.error;
}

describe('POST /v1/voice/transcribe', () => {
  it.each([
    ['file', {}, { bytes: 0 }],
    ['stt_model', { stt_model: 'deepgram/aura-2' }, {}],
    ['stt_model', { stt_model: 'no/such-model' }, {}],
    ['language', { language: 'english' }, {}],
  ] as const)('answers 400 or 404 naming %s', async (param, fields, options) => {
    const response = await upload('/v1/voice/transcribe', fields, options);
    await expectError(response, statusFor(param), param);
    expect(response.headers.get('x-svc-intelligence-mode')).toBe('full');
  });

  it('answers 413 above 25 MB, 400 for a body that is not multipart', async () => {
    expect((await upload('/v1/voice/transcribe', {}, { bytes: 25 * 1024 * 1024 + 1 })).status).toBe(413);
    await expectError(await test.post('/v1/voice/transcribe', { file: 'x' }), 400, null);
  });

  it('answers 401 without a key and 403 without the audio scope, with the voice intelligence mode', async () => {
    const anonymous = await upload('/v1/voice/transcribe', {}, { key: null, headers: { 'x-intelligence-mode': 'proxy' } });
    expect((await expectError(anonymous, 401, null)).code).toBe('invalid_api_key');
    expect(anonymous.headers.get('x-svc-intelligence-mode')).toBe('cache');
    const chatOnly = await test.keyWith(['inference:chat']);
    const forbidden = await upload('/v1/voice/transcribe', {}, { key: chatOnly });
    expect((await expectError(forbidden, 403, null)).code).toBe('insufficient_scopes');
    expect(forbidden.headers.get('x-svc-intelligence-mode')).toBe('full');
  });

  it('answers 400 naming X-Intelligence-Mode for an unknown mode', async () => {
    const response = await upload('/v1/voice/transcribe', {}, { headers: { 'x-intelligence-mode': 'turbo' } });
    await expectError(response, 400, 'X-Intelligence-Mode');
    expect(response.headers.get('x-svc-intelligence-mode')).toBeNull();
  });
});

describe('POST /v1/voice/synthesize', () => {
  const body = { text: 'Hello there.', model: 'deepgram/aura-2', voice: 'thalia-en', output_format: 'mp3_22050' };

  it.each([
    ['text', { text: '' }],
    ['text', { text: 'x'.repeat(2_001) }],
    ['model', { model: 'deepgram/nova-3' }],
    ['model', { model: 'openai/tts-1' }],
    ['voice', { voice: 'alloy' }],
    ['voice', { model: 'elevenlabs/eleven_flash_v2_5', voice: 'not a voice' }],
    ['output_format', { output_format: 'mp3' }],
    ['output_format', { output_format: 'mp3_44100' }],
  ])('answers 400 or 404 naming %s', async (param, change) => {
    const response = await test.post('/v1/voice/synthesize', { ...body, ...change });
    await expectError(response, statusFor(param), param);
    expect(response.headers.get('x-svc-intelligence-mode')).toBe('full');
  });

  it('answers 403 without the audio scope', async () => {
    const chatOnly = await test.keyWith(['inference:chat']);
    await expectError(await test.post('/v1/voice/synthesize', body, chatOnly), 403, null);
  });
});

describe('POST /v1/voice/chat', () => {
  it.each([
    ['language', {}],
    ['language', { language: 'xx-!' }],
    ['stt_model', { language: 'en', stt_model: 'elevenlabs/eleven_v3' }],
    ['tts_model', { language: 'en', tts_model: 'deepgram/nova-2' }],
    ['provider', { language: 'en', provider: 'groq' }],
    ['provider', { language: 'en', provider: 'deepgram', tts_model: 'elevenlabs/eleven_v3' }],
    ['voice', { language: 'en', provider: 'deepgram', voice: 'alloy' }],
    ['output_format', { language: 'en', tts_model: 'deepgram/aura-2', output_format: 'opus_16000' }],
  ])('answers 400 or 404 naming %s', async (param, fields) => {
    await expectError(await upload('/v1/voice/chat', fields), statusFor(param), param);
  });

  it('answers 400 naming file without audio, and for an overlong x-svc-conversation-id', async () => {
    await expectError(await upload('/v1/voice/chat', { language: 'en' }, { bytes: 0 }), 400, 'file');
    await expectError(await upload('/v1/voice/chat', { language: 'en' }, { headers: { 'x-svc-conversation-id': 'c'.repeat(257) } }), 400, 'x-svc-conversation-id');
  });

  it('answers 403 without the audio scope', async () => {
    const chatOnly = await test.keyWith(['inference:chat']);
    await expectError(await upload('/v1/voice/chat', { language: 'en' }, { key: chatOnly }), 403, null);
  });
});
