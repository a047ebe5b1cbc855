import { createLogger } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import { discoverModels } from './discovery.js';

const logger = createLogger({ level: 'silent' });

describe('model discovery', () => {
  it("reads self-hosted providers' GET /models, skips providers the catalog describes, and survives one that cannot be read", async () => {
    const asked: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      const url = String(input);
      asked.push(url);
      if (url.startsWith('http://down')) throw new Error('connection refused');
      return Response.json({ object: 'list', data: [{ id: 'Qwen/Qwen3-32B' }, { id: 'Qwen/Qwen3-32B' }, { id: 'llama' }] });
    };
    const { models: found, providers } = await discoverModels(
      [
        { id: 'myvllm', baseUrl: 'http://vllm:8000/v1/', apiKeys: ['k'] },
        { id: 'broken', baseUrl: 'http://down:1/v1' },
        { id: 'groq', baseUrl: 'http://groq-proxy/v1', apiKeys: ['g'] },
        { id: 'nourl', apiKeys: ['x'] },
      ],
      { myvllm: { inputPricePerMTok: 0.1, outputPricePerMTok: 0.2 } },
      { fetch, logger, timeoutMs: 1_000 },
    );
    expect(asked).toEqual(['http://vllm:8000/v1/models', 'http://down:1/v1/models']);
    expect(found.map((m) => m.id)).toEqual(['myvllm/Qwen/Qwen3-32B', 'myvllm/llama']);
    expect(found[0]).toMatchObject({ upstreamId: 'Qwen/Qwen3-32B', source: 'discovered', routable: true, inputPricePerMTok: 0.1 });
    expect(providers).toEqual([
      { provider: 'myvllm', url: 'http://vllm:8000/v1/models', models: 2 },
      { provider: 'broken', url: 'http://down:1/v1/models', models: null, error: 'connection refused' },
    ]);
  });

  it('a refresh keeps the models of a provider that cannot be read this time, and drops what a provider stopped listing', async () => {
    let down = false;
    let ids = ['a', 'b'];
    const fetch: typeof globalThis.fetch = async () => {
      if (down) throw new Error('connection refused');
      return Response.json({ data: ids.map((id) => ({ id })) });
    };
    const providers = [{ id: 'myvllm', baseUrl: 'http://vllm/v1' }];
    const first = await discoverModels(providers, {}, { fetch, logger, timeoutMs: 1_000 });
    ids = ['b', 'c'];
    const second = await discoverModels(providers, {}, { fetch, logger, timeoutMs: 1_000 }, first.models);
    expect(second.models.map((m) => m.id)).toEqual(['myvllm/b', 'myvllm/c']);
    down = true;
    const third = await discoverModels(providers, {}, { fetch, logger, timeoutMs: 1_000 }, second.models);
    expect(third.models).toEqual(second.models);
    expect(third.providers[0]).toMatchObject({ models: null, error: 'connection refused' });
  });
});
