import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

// The test runtime serves the mock provider only: no OpenAI key, so no speech model.
const master = 'sk-svc-audio-route-test-master-WFTROo6HQwjcLElnQBdgeZSy';
const test = useTestApp(master);

interface ErrorBody {
  error: { type: string; code: string | null; param: string | null; message: string };
}

const speech = { model: 'tts-1', input: 'Hello there', voice: 'alloy' };

describe('POST /v1/audio/speech', () => {
  // Every limit is tested on the decoder; here, that each reaches the client as a 400 naming it.
  it.each(['input', 'voice', 'response_format', 'speed'])('answers 400 on a bad %s', async (param) => {
    const bad: Record<string, unknown> = { input: 'x'.repeat(4097), voice: 'robot', response_format: 'ogg', speed: 4.5 };
    const response = await test.post('/v1/audio/speech', { ...speech, [param]: bad[param] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('answers 403 without the audio scope', async () => {
    const chatOnly = await test.keyWith(['inference:chat']);
    expect((await test.post('/v1/audio/speech', speech, chatOnly)).status).toBe(403);
  });

  it('answers 404 model_not_found for a model that is not a configured speech model', async () => {
    const response = await test.post('/v1/audio/speech', { ...speech, model: 'mock/mock-value' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });
});

describe('POST /v1/audio/transcriptions and /translations', () => {
  function upload(path: string, fields: Record<string, string>, options: { bytes?: number; key?: string } = {}) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(options.bytes ?? 100)], { type: 'audio/mpeg' }), 'a.mp3');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return Promise.resolve(test.app.request(path, { method: 'POST', headers: { authorization: `Bearer ${options.key ?? master}` }, body: form }));
  }

  it('answers 413 above 25 MB and 400 naming a bad part', async () => {
    expect((await upload('/v1/audio/transcriptions', { model: 'whisper-1' }, { bytes: 25 * 1024 * 1024 + 1 })).status).toBe(413);
    const badFormat = await upload('/v1/audio/translations', { model: 'whisper-1', response_format: 'mp3' });
    expect(badFormat.status).toBe(400);
    expect(((await badFormat.json()) as ErrorBody).error.param).toBe('response_format');
    const notMultipart = await test.post('/v1/audio/transcriptions', { model: 'whisper-1' });
    expect(notMultipart.status).toBe(400);
  });

  it('answers 403 without the audio scope', async () => {
    const chatOnly = await test.keyWith(['inference:chat']);
    expect((await upload('/v1/audio/transcriptions', { model: 'whisper-1' }, { key: chatOnly })).status).toBe(403);
  });
});
