import { describe, expect, it } from 'vitest';
import type { RecognitionRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { readBytes, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createElevenLabsProvider } from './elevenlabs-provider.js';
import { elevenlabsOutputFormat } from './elevenlabs-tts.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));
const serve = useFixtureProvider((url) => createElevenLabsProvider({ apiKeys: ['xi-1'], baseUrl: url }));

const voiceId = 'JBFqnCBsd6RMkjVDRZzb';
const audio: RecognitionRequest = { model: 'scribe_v1', file: new TextEncoder().encode('ID3-fake-mp3'), filename: 'hello.mp3', fileType: 'audio/mpeg' };

describe('elevenlabs text to speech', () => {
  it('posts the text and model to the voice\'s path with its output_format and xi-api-key, streaming the audio', async () => {
    const { server, provider } = await serve({ status: 200, headers: { 'content-type': 'audio/mpeg' }, chunks: ['ID3', '-audio'] });
    const result = await provider.speech!({ model: 'eleven_flash_v2_5', voice: voiceId, input: 'Hello!', responseFormat: 'mp3', sampleRate: 44100, speed: 1.1 });
    const sent = server.requests[0]!;
    expect(sent.path).toBe(`/v1/text-to-speech/${voiceId}?output_format=mp3_44100_128`);
    expect(sent.headers['xi-api-key']).toBe('xi-1');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ text: 'Hello!', model_id: 'eleven_flash_v2_5', voice_settings: { speed: 1.1 } });
    expect(result.contentType).toBe('audio/mpeg');
    expect((await readBytes(result.body)).toString()).toBe('ID3-audio');
  });

  it('maps every format and rate it produces, and nothing else', () => {
    expect(elevenlabsOutputFormat('mp3', undefined)).toBe('mp3_44100_128');
    expect(elevenlabsOutputFormat('mp3', 22050)).toBe('mp3_22050_32');
    expect(elevenlabsOutputFormat('pcm', 16000)).toBe('pcm_16000');
    expect(elevenlabsOutputFormat('wav', 24000)).toBe('wav_24000');
    expect(elevenlabsOutputFormat('ulaw', undefined)).toBe('ulaw_8000');
    expect(elevenlabsOutputFormat('opus', 48000)).toBe('opus_48000_64');
    expect(elevenlabsOutputFormat('mp3', 16000)).toBeUndefined();
    expect(elevenlabsOutputFormat('flac', 44100)).toBeUndefined();
  });

  it('refuses a format it does not produce before any call, and names a raw PCM answer\'s type', async () => {
    const { server, provider } = await serve({ status: 200, headers: { 'content-type': 'application/octet-stream' }, chunks: ['\u0000\u0001'] });
    expect(await rejection(provider.speech!({ model: 'eleven_v3', voice: voiceId, input: 'Hi', responseFormat: 'aac' }))).toMatchObject({ kind: 'invalid_request', param: 'response_format' });
    expect(server.requests).toHaveLength(0);
    const pcm = await provider.speech!({ model: 'eleven_v3', voice: voiceId, input: 'Hi', responseFormat: 'pcm', sampleRate: 16000 });
    expect(server.requests[0]?.path).toBe(`/v1/text-to-speech/${voiceId}?output_format=pcm_16000`);
    expect(pcm.contentType).toBe('audio/pcm');
  });

  it('maps its errors: a bad key, a spent quota (401 but billing), an unknown voice, a validation list naming the field, concurrency', async () => {
    for (const [status, fixture, kind, extra] of [
      [401, 'error-invalid-api-key', 'authentication', { message: 'Invalid API key' }],
      [401, 'error-quota-exceeded', 'billing', { upstreamCode: 'quota_exceeded' }],
      [400, 'error-voice-not-found', 'invalid_request', { upstreamCode: 'voice_not_found' }],
      [422, 'error-validation', 'invalid_request', { param: 'text', message: 'text: field required' }],
      [429, 'error-concurrency', 'rate_limit', {}],
    ] as const) {
      const { provider } = await serve({ status, json: json(fixture) });
      expect(await rejection(provider.speech!({ model: 'eleven_flash_v2_5', voice: voiceId, input: 'Hi' })), fixture).toMatchObject({ kind, upstreamStatus: status, ...extra });
    }
  });
});

describe('elevenlabs speech to text (Scribe)', () => {
  it('posts model_id, the file and the language as multipart and reads text, language and duration', async () => {
    const { server, provider } = await serve({ json: json('stt-scribe') });
    const result = await provider.recognize!({ ...audio, language: 'en' }, { apiKey: 'xi-org' });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/speech-to-text');
    expect(sent.headers['xi-api-key']).toBe('xi-org');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = String(sent.body);
    expect(body).toContain('name="model_id"\r\n\r\nscribe_v1\r\n');
    expect(body).toContain('name="language_code"\r\n\r\nen\r\n');
    expect(body).toContain('filename="hello.mp3"');
    expect(body).toContain('ID3-fake-mp3');
    expect(result).toEqual({ text: 'Hello world!', language: 'en', durationSeconds: 1.2 });
  });

  it('detects the language when none is given, and has no duration without words', async () => {
    const { server, provider } = await serve({ json: { language_code: 'deu', language_probability: 0.9, text: ' Hallo. ', words: [] } });
    expect(await provider.recognize!(audio)).toEqual({ text: 'Hallo.', language: 'de' });
    expect(String(server.requests[0]?.body)).not.toContain('language_code');
  });

  it('rejects an answer without text as a retryable server error', async () => {
    const { provider } = await serve({ json: { language_code: 'eng' } });
    expect(await rejection(provider.recognize!(audio))).toMatchObject({ kind: 'server', retryable: true });
  });
});
