import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from './provider.js';
import { createProviderRegistry } from './registry.js';
import type { HttpClient } from './shared/http-client.js';
import { fixtureFiles } from './test/fixture-files.js';
import { useFixtureServer } from './test/use-fixture-server.js';

const textFixture = fixtureFiles(new URL('./openai/__fixtures__/', import.meta.url)).json('text');
const request: ProviderChatRequest = { model: 'llama-3.3-70b-versatile', messages: [{ role: 'user', content: 'Hi' }], stream: false, n: 1, includeUsage: false };

const startServer = useFixtureServer();

/** A fetch that records the URLs it was asked for and answers the OpenAI text fixture. */
function recordingFetch(urls: string[]): typeof globalThis.fetch {
  return async (input) => {
    urls.push(String(input));
    return new Response(JSON.stringify(textFixture), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

describe('provider registry', () => {
  it('registers the configured providers and nothing else', () => {
    const registry = createProviderRegistry({
      openai: { apiKeys: ['sk-1'] },
      anthropic: { apiKeys: ['ak-1'] },
      gemini: { apiKeys: [] },
      compatible: [{ id: 'groq', apiKeys: ['g-1'] }, { id: 'together', apiKeys: [] }],
      mock: { enabled: true },
    });
    expect([...registry.ids()].sort()).toEqual(['anthropic', 'groq', 'mock', 'openai']);
    expect(registry.get('groq')?.id).toBe('groq');
    expect(registry.get('gemini')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
  });

  it('registers the speech providers with their keys and public endpoints, recognize and speech on them, Groq\'s Whisper too', async () => {
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ metadata: { duration: 1 }, results: { channels: [{ alternatives: [{ transcript: 'hi' }] }] }, text: 'hi' }), { status: 200 });
    };
    const registry = createProviderRegistry({ fetch, deepgram: { apiKeys: ['dg'] }, elevenlabs: { apiKeys: ['xi'] }, compatible: [{ id: 'groq', apiKeys: ['g'] }] });
    expect([...registry.ids()].sort()).toEqual(['deepgram', 'elevenlabs', 'groq']);
    const audio = { model: 'm', file: new Uint8Array(1), filename: 'a.wav' };
    for (const id of ['deepgram', 'elevenlabs', 'groq']) await registry.get(id)!.recognize!(audio);
    expect(urls).toEqual([
      'https://api.deepgram.com/v1/listen?model=m&smart_format=true&detect_language=true',
      'https://api.elevenlabs.io/v1/speech-to-text',
      'https://api.groq.com/openai/v1/audio/transcriptions',
    ]);
    expect(registry.get('deepgram')?.speech).toBeDefined();
    expect(registry.get('groq')?.speech).toBeUndefined();
  });

  it('serves every speech-to-text and text-to-speech model of the catalog with an adapter method', () => {
    const catalog = createCatalog();
    const voice = [...catalog.list({ kind: 'transcription' }), ...catalog.list({ kind: 'speech' })];
    const providers = new Set(voice.map((m) => m.provider));
    const registry = createProviderRegistry({
      openai: { apiKeys: ['sk'] },
      deepgram: { apiKeys: ['dg'] },
      elevenlabs: { apiKeys: ['xi'] },
      compatible: [...providers].filter((id) => !['openai', 'deepgram', 'elevenlabs'].includes(id)).map((id) => ({ id, apiKeys: ['k'] })),
    });
    for (const model of voice) {
      const provider = registry.get(model.provider);
      expect(model.kind === 'speech' ? provider?.speech : provider?.recognize, model.id).toBeTypeOf('function');
    }
  });

  it('is empty without configuration; mock only when enabled', () => {
    expect(createProviderRegistry({}).ids().size).toBe(0);
    expect([...createProviderRegistry({ mock: { enabled: false } }).ids()]).toEqual([]);
    expect([...createProviderRegistry({ mock: { enabled: true } }).ids()]).toEqual(['mock']);
  });

  it('gives known compatible vendors their public base URL and keeps an explicit one', async () => {
    const urls: string[] = [];
    const registry = createProviderRegistry({
      fetch: recordingFetch(urls),
      openai: { apiKeys: ['sk'] },
      compatible: [
        { id: 'groq', apiKeys: ['g'] },
        { id: 'openrouter', apiKeys: ['o'] },
        { id: 'perplexity', apiKeys: ['p'] },
        { id: 'together', apiKeys: ['t'], baseUrl: 'https://proxy.internal/together/v1' },
        { id: 'ollama' },
      ],
    });
    for (const id of ['openai', 'groq', 'openrouter', 'perplexity', 'together', 'ollama']) await registry.get(id)!.chat(request);
    expect(urls).toEqual([
      'https://api.openai.com/v1/chat/completions',
      'https://api.groq.com/openai/v1/chat/completions',
      'https://openrouter.ai/api/v1/chat/completions',
      'https://api.perplexity.ai/chat/completions',
      'https://proxy.internal/together/v1/chat/completions',
      'http://127.0.0.1:11434/v1/chat/completions',
    ]);
  });

  it('sends every HTTP provider through an injected http client, which wins over fetch', async () => {
    const urls: string[] = [];
    const http: HttpClient = {
      request: async ({ url }) => {
        urls.push(url);
        return { status: 200, headers: new Headers(), text: async () => JSON.stringify(textFixture), body: (async function* () {})() };
      },
    };
    const registry = createProviderRegistry({ http, fetch: recordingFetch([]), openai: { apiKeys: ['sk'] }, compatible: [{ id: 'groq', apiKeys: ['g'] }] });
    for (const id of ['openai', 'groq']) await registry.get(id)!.chat(request);
    expect(urls).toEqual(['https://api.openai.com/v1/chat/completions', 'https://api.groq.com/openai/v1/chat/completions']);
  });

  it('applies vendor quirks (mistral) over the wire', async () => {
    const server = await startServer(() => ({ json: textFixture }));
    const registry = createProviderRegistry({ compatible: [{ id: 'mistral', apiKeys: ['m'], baseUrl: `${server.url}/v1` }] });
    await registry.get('mistral')!.chat({ ...request, seed: 1, user: 'u' });
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer m');
    expect(server.requests[0]!.body).toEqual({ model: request.model, messages: request.messages, random_seed: 1 });
  });

  it('routes openai through an overridden base URL', async () => {
    const server = await startServer(() => ({ json: textFixture }));
    const registry = createProviderRegistry({ openai: { apiKeys: ['sk-x'], baseUrl: `${server.url}/v1` } });
    const result = await registry.get('openai')!.chat(request);
    expect(result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
  });

  it('fails at creation on configuration that can never work', () => {
    expect(() => createProviderRegistry({ compatible: [{ id: 'acme', apiKeys: ['k'] }] })).toThrow(/'acme' needs a baseUrl/);
    expect(() => createProviderRegistry({ compatible: [{ id: 'Groq', apiKeys: ['k'] }] })).toThrow(/invalid/);
    expect(() =>
      createProviderRegistry({ openai: { apiKeys: ['k'] }, compatible: [{ id: 'openai', apiKeys: ['k'], baseUrl: 'http://x/v1' }] }),
    ).toThrow(/configured twice/);
  });

  it('registers an unknown self-hosted vendor without keys when its base URL is given', () => {
    const registry = createProviderRegistry({ compatible: [{ id: 'vllm', baseUrl: 'http://10.0.0.5:8000/v1' }] });
    expect(registry.ids().has('vllm')).toBe(true);
  });
});
