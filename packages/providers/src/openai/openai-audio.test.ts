import { describe, expect, it } from 'vitest';
import type { Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { readBytes, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { type OpenAIProviderSettings, createOpenAIProvider } from './openai-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const serve = useFixtureProvider((url, settings: Partial<OpenAIProviderSettings> = {}) =>
  createOpenAIProvider({ apiKeys: ['sk-1'], baseUrl: `${url}/v1`, ...settings }),
);

function moderate(provider: Provider) {
  if (!provider.moderate) throw new Error('provider has no moderate');
  return provider.moderate.bind(provider);
}

function speech(provider: Provider) {
  if (!provider.speech) throw new Error('provider has no speech');
  return provider.speech.bind(provider);
}

describe('openai moderations', () => {
  it('posts the inputs and passes the verdicts through, applied input types included', async () => {
    const { server, provider } = await serve({ json: json('moderation-omni') });
    const result = await moderate(provider)({ model: 'omni-moderation-latest', input: ['I will hurt you', 'hello'] });
    expect(server.requests[0]).toMatchObject({ path: '/v1/moderations', body: { model: 'omni-moderation-latest', input: ['I will hurt you', 'hello'] } });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-1');
    expect(result.id).toBe('modr-0d9740456c391e43c445bf0f010940c7');
    expect(result.results.map((r) => r.flagged)).toEqual([true, false]);
    expect(result.results[0]?.category_applied_input_types?.violence).toEqual(['text', 'image']);
  });

  it('uses the key the call names (an organisation\'s own)', async () => {
    const { server, provider } = await serve({ json: json('moderation-omni') });
    await moderate(provider)({ model: 'omni-moderation-latest', input: 'x' }, { apiKey: 'sk-org' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-org');
  });

  it('rejects a malformed answer as a retryable server error, and maps upstream errors', async () => {
    const { provider } = await serve({ json: { id: 'modr-1', results: [{ flagged: 'yes' }] } });
    expect(await rejection(moderate(provider)({ model: 'm', input: 'x' }))).toMatchObject({ kind: 'server', retryable: true });
    const { provider: limited } = await serve({ status: 429, json: json('error-rate-limit') });
    expect(await rejection(moderate(limited)({ model: 'm', input: 'x' }))).toMatchObject({ kind: 'rate_limit', upstreamStatus: 429 });
  });

  it('is not offered by compatible vendors', () => {
    const groq = createOpenAIProvider({ id: 'groq', apiKeys: ['k'] });
    expect(groq.moderate).toBeUndefined();
    expect(groq.speech).toBeUndefined();
  });
});

describe('openai speech', () => {
  it('sends only the set fields and streams the audio through with its content type', async () => {
    const { server, provider } = await serve({ status: 200, headers: { 'content-type': 'audio/flac' }, chunks: ['fLaC', '-frame-1', '-frame-2'] });
    const result = await speech(provider)({ model: 'gpt-4o-mini-tts', input: 'Hello', voice: 'nova', responseFormat: 'flac', speed: 1.5, instructions: 'cheerful' });
    expect(server.requests[0]).toMatchObject({
      path: '/v1/audio/speech',
      body: { model: 'gpt-4o-mini-tts', input: 'Hello', voice: 'nova', response_format: 'flac', speed: 1.5, instructions: 'cheerful' },
    });
    expect(result.contentType).toBe('audio/flac');
    expect((await readBytes(result.body)).toString()).toBe('fLaC-frame-1-frame-2');
  });

  it('names the format\'s content type when the upstream sends none of audio', async () => {
    const { server, provider } = await serve({ status: 200, headers: { 'content-type': 'application/octet-stream' }, chunks: ['ID3'] });
    const result = await speech(provider)({ model: 'tts-1', input: 'Hi', voice: 'alloy' });
    expect(server.requests[0]?.body).toEqual({ model: 'tts-1', input: 'Hi', voice: 'alloy' });
    expect(result.contentType).toBe('audio/mpeg');
    expect((await readBytes(result.body)).toString()).toBe('ID3');
  });

  it('rejects before any byte on an upstream error', async () => {
    const { provider } = await serve({ status: 400, json: json('error-bad-request') });
    expect(await rejection(speech(provider)({ model: 'tts-1', input: 'Hi', voice: 'alloy' }))).toMatchObject({ kind: 'invalid_request', upstreamStatus: 400 });
  });
});
