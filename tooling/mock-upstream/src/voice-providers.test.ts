import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ faultKeys: { 'dg-broke': '402', 'xi-broke': '402' } });
});
afterAll(() => mock.close());

const voice = 'JBFqnCBsd6RMkjVDRZzb';

function listen(query: string, bytes: number, headers: Record<string, string> = {}) {
  return fetch(`${mock.url}/v1/listen?${query}`, { method: 'POST', headers: { 'content-type': 'audio/wav', authorization: 'Token dg-1', ...headers }, body: new Uint8Array(bytes) });
}

interface Listen {
  metadata: { duration: number };
  results: { channels: { alternatives: { transcript: string }[]; detected_language?: string }[] };
}

describe('deepgram', () => {
  it('transcribes the body\'s bytes: one second per kB, the language detected when asked', async () => {
    const body = await readJson<Listen>(await listen('model=nova-3&smart_format=true&detect_language=true', 2500));
    expect(body.metadata.duration).toBe(2.5);
    expect(body.results.channels[0]).toMatchObject({ alternatives: [{ transcript: 'Transcribed 2500 bytes of audio.' }], detected_language: 'en' });
    const spanish = await readJson<Listen>(await listen('model=nova-2&language=es', 100));
    expect(spanish.results.channels[0]?.detected_language).toBeUndefined();
  });

  it('refuses an unknown model and an empty body in its own error shape', async () => {
    const unknown = await listen('model=nova-9', 10);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ err_code: 'Bad Request', err_msg: expect.stringContaining('nova-9') });
    expect((await listen('model=nova-3', 0)).status).toBe(400);
  });

  it('speaks fake audio of the encoding and container with its content type', async () => {
    const mp3 = await post(`${mock.url}/v1/speak?model=aura-2-thalia-en&encoding=mp3`, { text: 'Hello' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await mp3.arrayBuffer()).toString('latin1')).toBe('ID3.....');
    const wav = await post(`${mock.url}/v1/speak?model=aura-luna-en&encoding=linear16&container=wav&sample_rate=16000`, { text: 'Hi' });
    expect([wav.headers.get('content-type'), Buffer.from(await wav.arrayBuffer()).toString('latin1')]).toEqual(['audio/wav', 'RIFF..']);
    const raw = await post(`${mock.url}/v1/speak?model=aura-2-orion-en&encoding=mulaw&container=none&sample_rate=8000`, { text: 'Hi' });
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect((await post(`${mock.url}/v1/speak?model=tts-1`, { text: 'Hi' })).status).toBe(400);
    expect((await post(`${mock.url}/v1/speak?model=aura-2-thalia-en`, { text: 'x'.repeat(2001) })).status).toBe(400);
  });

  it('answers faults in Deepgram\'s shape, by fault key read from the Token header too', async () => {
    const fault = await listen('model=nova-3', 10, { 'x-mock-fault': '429' });
    expect(fault.status).toBe(429);
    expect(await fault.json()).toMatchObject({ err_code: 'TOO_MANY_REQUESTS' });
    const broke = await listen('model=nova-3', 10, { authorization: 'Token dg-broke' });
    expect(broke.status).toBe(402);
    expect(await broke.json()).toMatchObject({ err_code: 'ASR_PAYMENT_REQUIRED' });
  });
});

describe('elevenlabs', () => {
  it('speaks fake audio of the output_format with its content type', async () => {
    const mp3 = await post(`${mock.url}/v1/text-to-speech/${voice}?output_format=mp3_44100_128`, { text: 'Hello', model_id: 'eleven_flash_v2_5' }, { 'xi-api-key': 'xi-1' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await mp3.arrayBuffer()).toString('latin1')).toBe('ID3.....');
    const pcm = await post(`${mock.url}/v1/text-to-speech/${voice}?output_format=pcm_16000`, { text: 'Hi', model_id: 'eleven_v3' });
    expect([pcm.headers.get('content-type'), (await pcm.arrayBuffer()).byteLength]).toEqual(['application/octet-stream', 2]);
  });

  it('answers an unknown voice, a missing field and a spent quota as ElevenLabs does', async () => {
    const unknown = await post(`${mock.url}/v1/text-to-speech/nobody?output_format=mp3_44100_128`, { text: 'Hi', model_id: 'eleven_v3' });
    expect([unknown.status, await unknown.json()]).toEqual([400, { detail: { status: 'voice_not_found', message: expect.any(String) } }]);
    const invalid = await post(`${mock.url}/v1/text-to-speech/${voice}`, { model_id: 'eleven_v3' });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ detail: [{ loc: ['body', 'text'] }] });
    const broke = await post(`${mock.url}/v1/text-to-speech/${voice}`, { text: 'Hi', model_id: 'eleven_v3' }, { 'xi-api-key': 'xi-broke' });
    expect([broke.status, await broke.json()]).toEqual([401, { detail: { status: 'quota_exceeded', message: expect.stringContaining('quota') } }]);
  });

  it('transcribes a multipart upload: the file named, the language asked or eng, one second per kB', async () => {
    const form = new FormData();
    form.append('model_id', 'scribe_v1');
    form.append('file', new Blob([new Uint8Array(1500)], { type: 'audio/mpeg' }), 'hello.mp3');
    const body = await readJson<{ text: string; language_code: string; words: { end: number }[] }>(await fetch(`${mock.url}/v1/speech-to-text`, { method: 'POST', body: form }));
    expect(body).toMatchObject({ text: 'Transcribed hello.mp3.', language_code: 'eng', words: [{ end: 1.5 }] });
    const missing = new FormData();
    missing.append('file', new Blob([new Uint8Array(1)]), 'a.mp3');
    expect((await fetch(`${mock.url}/v1/speech-to-text`, { method: 'POST', body: missing })).status).toBe(422);
  });
});
