import { describe, expect, it } from 'vitest';
import type { RecognitionRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { readBytes, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createDeepgramProvider } from './deepgram-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));
const serve = useFixtureProvider((url, keys: string[] = ['dg-1']) => createDeepgramProvider({ apiKeys: keys, baseUrl: url }));

const audio: RecognitionRequest = { model: 'nova-3', file: new TextEncoder().encode('RIFF-fake-wave'), filename: 'space.wav', fileType: 'audio/wav' };

describe('deepgram listen (pre-recorded speech to text)', () => {
  it('posts the audio bytes with their type and the Token key, detecting the language when none is given', async () => {
    const { server, provider } = await serve({ json: json('listen-detected') });
    const result = await provider.recognize!(audio);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/listen?model=nova-3&smart_format=true&detect_language=true');
    expect(sent.headers.authorization).toBe('Token dg-1');
    expect(sent.headers['content-type']).toBe('audio/wav');
    expect(sent.body).toBe('RIFF-fake-wave');
    expect(result).toEqual({
      text: "Yeah. As much as it's worth celebrating the first spacewalk with an all female team, I think many of us are looking forward to it just being normal.",
      language: 'en',
      durationSeconds: 25.933313,
    });
  });

  it('sends the language asked for and keeps it when Deepgram detects none', async () => {
    const { server, provider } = await serve({ json: json('listen-spanish') });
    const result = await provider.recognize!({ ...audio, model: 'nova-2', language: 'es', fileType: undefined }, { apiKey: 'dg-org' });
    expect(server.requests[0]?.path).toBe('/v1/listen?model=nova-2&smart_format=true&language=es');
    expect(server.requests[0]?.headers).toMatchObject({ authorization: 'Token dg-org', 'content-type': 'audio/*' });
    expect(result).toEqual({ text: 'Hola, ¿cómo estás?', language: 'es', durationSeconds: 4.2 });
  });

  it('maps both error shapes by status: a bad key, bad audio, no credit, too many requests', async () => {
    for (const [status, fixture, kind, message] of [
      [401, 'error-invalid-auth', 'authentication', 'Invalid credentials.'],
      [400, 'error-unsupported-data', 'invalid_request', 'Bad Request: failed to process audio: corrupt or unsupported data'],
      [402, 'error-insufficient-credits', 'billing', expect.stringContaining('enough credits')],
      [429, 'error-too-many-requests', 'rate_limit', 'Too many requests. Too many concurrent requests. Please try again later.'],
    ] as const) {
      const { provider } = await serve({ status, json: json(fixture) });
      expect(await rejection(provider.recognize!(audio)), fixture).toMatchObject({ kind, upstreamStatus: status, message });
    }
  });

  it('rejects an answer without a transcript as a retryable server error', async () => {
    const { provider } = await serve({ json: { metadata: { duration: 1 }, results: { channels: [] } } });
    expect(await rejection(provider.recognize!(audio))).toMatchObject({ kind: 'server', retryable: true });
  });
});

describe('deepgram speak (Aura text to speech)', () => {
  it('names the voice in the model and asks for the format: mp3 as is, wav as linear16 in a wav container at the rate', async () => {
    const { server, provider } = await serve({ status: 200, headers: { 'content-type': 'audio/mpeg' }, chunks: ['ID3', '-frames'] });
    const mp3 = await provider.speech!({ model: 'aura-2', voice: 'thalia-en', input: 'Hello there.', responseFormat: 'mp3', sampleRate: 22050 });
    expect(server.requests[0]).toMatchObject({ path: '/v1/speak?model=aura-2-thalia-en&encoding=mp3', body: { text: 'Hello there.' } });
    expect(server.requests[0]?.headers.authorization).toBe('Token dg-1');
    expect(mp3.contentType).toBe('audio/mpeg');
    expect((await readBytes(mp3.body)).toString()).toBe('ID3-frames');

    const { server: wavServer, provider: wavProvider } = await serve({ status: 200, headers: { 'content-type': 'application/octet-stream' }, chunks: ['RIFF'] });
    const wav = await wavProvider.speech!({ model: 'aura-2', voice: 'orion-en', input: 'Hi', responseFormat: 'wav', sampleRate: 16000 });
    expect(wavServer.requests[0]?.path).toBe('/v1/speak?model=aura-2-orion-en&encoding=linear16&container=wav&sample_rate=16000');
    expect(wav.contentType).toBe('audio/wav');
  });

  it('asks for raw mu-law at its rate and names its content type', async () => {
    const { server, provider } = await serve({ status: 200, headers: { 'content-type': 'application/octet-stream' }, chunks: ['\u00ff\u007f'] });
    const result = await provider.speech!({ model: 'aura', voice: 'luna-en', input: 'Hi', responseFormat: 'ulaw', sampleRate: 8000 });
    expect(server.requests[0]?.path).toBe('/v1/speak?model=aura-luna-en&encoding=mulaw&container=none&sample_rate=8000');
    expect(result.contentType).toBe('audio/basic');
  });

  it('refuses speed and instructions before any call, and maps an upstream error before any byte', async () => {
    const { server, provider } = await serve({ status: 200, chunks: [] });
    expect(await rejection(provider.speech!({ model: 'aura-2', voice: 'thalia-en', input: 'Hi', speed: 1.5 }))).toMatchObject({ kind: 'invalid_request', param: 'speed' });
    expect(server.requests).toHaveLength(0);
    const { provider: failing } = await serve({ status: 400, json: { err_code: 'INVALID_QUERY_PARAMETER', err_msg: "Invalid model 'aura-2-nobody-en'", request_id: 'x' } });
    expect(await rejection(failing.speech!({ model: 'aura-2', voice: 'nobody-en', input: 'Hi' }))).toMatchObject({ kind: 'invalid_request', upstreamCode: 'INVALID_QUERY_PARAMETER' });
  });

  it('serves no chat models and says so', async () => {
    const { provider } = await serve({ json: {} });
    expect(await rejection(provider.chat({ model: 'nova-3', messages: [], stream: false, n: 1, includeUsage: false }))).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining('speech models only') });
  });
});
