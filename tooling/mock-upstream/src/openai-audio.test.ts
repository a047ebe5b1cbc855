import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(() => mock.close());

interface Moderation {
  id: string;
  model: string;
  results: { flagged: boolean; categories: Record<string, boolean>; category_applied_input_types: Record<string, string[]> }[];
}

describe('POST /v1/moderations', () => {
  it('flags a text with a trigger word, passes the rest, one verdict per input', async () => {
    const body = await readJson<Moderation>(await post(`${mock.url}/v1/moderations`, { input: ['I will kill it', 'hello'] }));
    expect(body.model).toBe('omni-moderation-latest');
    expect(body.id).toMatch(/^modr-/);
    expect(body.results.map((r) => r.flagged)).toEqual([true, false]);
    expect(body.results[0]?.categories.violence).toBe(true);
  });

  it('takes the multimodal form as one input and applies image categories', async () => {
    const input = [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }];
    const body = await readJson<Moderation>(await post(`${mock.url}/v1/moderations`, { model: 'omni-moderation-latest', input }));
    expect(body.results).toHaveLength(1);
    expect(body.results[0]?.category_applied_input_types.violence).toEqual(['text', 'image']);
  });

  it('answers 400 without input', async () => {
    expect((await post(`${mock.url}/v1/moderations`, { model: 'm' })).status).toBe(400);
  });
});

describe('POST /v1/audio/speech', () => {
  it('returns fake audio of the format with its content type', async () => {
    const res = await post(`${mock.url}/v1/audio/speech`, { model: 'tts-1', input: 'Hello', voice: 'alloy', response_format: 'wav' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toBe('RIFF.....');
  });

  it('defaults to mp3 and refuses a speed out of range', async () => {
    const res = await post(`${mock.url}/v1/audio/speech`, { model: 'tts-1', input: 'Hi', voice: 'alloy' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect((await post(`${mock.url}/v1/audio/speech`, { model: 'tts-1', input: 'Hi', voice: 'alloy', speed: 5 })).status).toBe(400);
  });
});

describe('POST /v1/audio/transcriptions and /translations', () => {
  function upload(path: string, fields: Record<string, string>, bytes = 2500) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/mpeg' }), 'hello.mp3');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return fetch(`${mock.url}${path}`, { method: 'POST', body: form });
  }

  it('answers json by default and verbose_json with one second per kB', async () => {
    expect(await readJson(await upload('/v1/audio/transcriptions', { model: 'whisper-1' }))).toEqual({ text: 'Transcribed hello.mp3.' });
    const verbose = await readJson<{ task: string; duration: number; language: string }>(await upload('/v1/audio/translations', { model: 'whisper-1', response_format: 'verbose_json' }));
    expect(verbose).toMatchObject({ task: 'translate', duration: 2.5, language: 'english' });
  });

  it('answers text, srt and vtt as plain text', async () => {
    const text = await upload('/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'text' });
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe('Transcribed hello.mp3.\n');
    expect(await (await upload('/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'srt' })).text()).toContain('00:00:00,000 --> 00:00:02,500');
    expect(await (await upload('/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'vtt' })).text()).toMatch(/^WEBVTT/);
  });

  it('answers 400 without a file', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    expect((await fetch(`${mock.url}/v1/audio/transcriptions`, { method: 'POST', body: form })).status).toBe(400);
  });
});
