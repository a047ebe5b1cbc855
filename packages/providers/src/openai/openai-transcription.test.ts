import { describe, expect, it } from 'vitest';
import type { Provider, TranscriptionRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { compatibleVendors } from './compatible-vendors.js';
import { createOpenAIProvider } from './openai-provider.js';

const serve = useFixtureProvider((url) => createOpenAIProvider({ apiKeys: ['sk-1'], baseUrl: `${url}/v1` }));

function transcribe(provider: Provider) {
  if (!provider.transcribe) throw new Error('provider has no transcribe');
  return provider.transcribe.bind(provider);
}

const request: TranscriptionRequest = { task: 'transcription', model: 'whisper-1', file: new TextEncoder().encode('ID3-fake-audio'), filename: 'hello.mp3', fileType: 'audio/mpeg' };

describe('openai transcriptions', () => {
  it('posts the file and fields as multipart and reads the duration of verbose_json', async () => {
    const { server, provider } = await serve({ json: { task: 'transcribe', language: 'english', duration: 12.5, text: 'Hello.' } });
    const result = await transcribe(provider)({ ...request, language: 'en', prompt: 'greeting', responseFormat: 'verbose_json', temperature: 0.2 });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = String(sent.body);
    for (const [name, value] of [['model', 'whisper-1'], ['language', 'en'], ['prompt', 'greeting'], ['response_format', 'verbose_json'], ['temperature', '0.2']]) {
      expect(body).toContain(`name="${name}"\r\n\r\n${value}\r\n`);
    }
    expect(body).toContain('filename="hello.mp3"');
    expect(body).toContain('ID3-fake-audio');
    expect(result).toMatchObject({ contentType: 'application/json', durationSeconds: 12.5 });
    expect(JSON.parse(result.body)).toMatchObject({ text: 'Hello.' });
  });

  it('sends translations to /audio/translations without a language, and maps upstream errors', async () => {
    const { server, provider } = await serve({ json: { text: 'Hello.' } });
    const result = await transcribe(provider)({ ...request, task: 'translation', language: 'de' });
    expect(server.requests[0]?.path).toBe('/v1/audio/translations');
    expect(String(server.requests[0]?.body)).not.toContain('name="language"');
    expect(result.durationSeconds).toBeUndefined();
    const { provider: failing } = await serve({ status: 429, json: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } } });
    expect(await rejection(transcribe(failing)(request))).toMatchObject({ kind: 'rate_limit', upstreamStatus: 429 });
  });
});

describe('openai recognize (the voice endpoints\' speech-to-text)', () => {
  const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

  function recognize(provider: Provider) {
    if (!provider.recognize) throw new Error('provider has no recognize');
    return provider.recognize.bind(provider);
  }

  it('asks Whisper for verbose_json and reads the text, the language as a code and the duration', async () => {
    const { server, provider } = await serve({ json: json('transcription-verbose') });
    const result = await recognize(provider)({ model: 'whisper-1', file: request.file, filename: 'beach.mp3' });
    const body = String(server.requests[0]?.body);
    expect(server.requests[0]?.path).toBe('/v1/audio/transcriptions');
    expect(body).toContain('name="response_format"\r\n\r\nverbose_json\r\n');
    expect(body).not.toContain('name="language"');
    expect(result).toEqual({ text: 'The beach was a popular spot on a hot summer day.', language: 'en', durationSeconds: 8.470000267028809 });
  });

  it('asks the gpt-4o transcription models for json, keeping the language asked for; a duration comes from usage when billed by it', async () => {
    const { server, provider } = await serve({ json: json('transcription-tokens') });
    const tokens = await recognize(provider)({ model: 'gpt-4o-mini-transcribe', file: request.file, filename: 'a.wav', language: 'en' });
    expect(String(server.requests[0]?.body)).toContain('name="response_format"\r\n\r\njson\r\n');
    expect(tokens).toEqual({ text: expect.stringMatching(/^Imagine the wildest idea/), language: 'en' });
    const { provider: whisper } = await serve({ json: json('transcription-duration') });
    expect(await recognize(whisper)({ model: 'gpt-4o-transcribe', file: request.file, filename: 'a.wav' })).toEqual({ text: 'Ich bin ein Berliner.', durationSeconds: 3 });
  });

  it('rejects an answer without text as a retryable server error', async () => {
    const { provider } = await serve({ json: { task: 'transcribe' } });
    expect(await rejection(recognize(provider)({ model: 'whisper-1', file: request.file, filename: 'a.wav' }))).toMatchObject({ kind: 'server', retryable: true });
  });
});

describe('groq transcriptions (OpenAI-compatible)', () => {
  const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));
  const serveGroq = useFixtureProvider((url) => createOpenAIProvider({ id: 'groq', apiKeys: ['gsk-1'], baseUrl: `${url}/openai/v1`, compatibility: compatibleVendors.groq?.compatibility }));

  it('serves transcribe and recognize on its /openai/v1 base, with Groq\'s key', async () => {
    const { server, provider } = await serveGroq({ json: json('groq-transcription-verbose') });
    expect(provider.transcribe).toBeDefined();
    const result = await provider.recognize!({ model: 'whisper-large-v3-turbo', file: request.file, filename: 'morgen.m4a', language: 'de' });
    expect(server.requests[0]?.path).toBe('/openai/v1/audio/transcriptions');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer gsk-1');
    expect(String(server.requests[0]?.body)).toContain('name="language"\r\n\r\nde\r\n');
    expect(result).toEqual({ text: 'Guten Morgen, wie geht es dir?', language: 'de', durationSeconds: 2.84 });
  });

  it('is off for vendors without transcriptions', () => {
    expect(createOpenAIProvider({ id: 'together', apiKeys: ['k'] }).recognize).toBeUndefined();
  });
});
