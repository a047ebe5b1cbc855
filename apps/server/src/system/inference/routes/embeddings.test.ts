import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const test = useTestApp('sk-svc-embeddings-route-test-master');
const post = (body: unknown, key?: string) => test.post('/v1/embeddings', body, key);

interface EmbeddingList {
  object: string;
  model: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  usage: { prompt_tokens: number; total_tokens: number };
  svc_metadata: { provider: string; cost_usd: number };
}

describe('POST /v1/embeddings', () => {
  it('answers float vectors in input order from the mock embedding model for auto', async () => {
    const response = await post({ model: 'auto', input: ['first text', 'second text'] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as EmbeddingList;
    expect(body).toMatchObject({ object: 'list', model: 'mock/mock-embed', svc_metadata: { provider: 'mock' } });
    expect(body.data.map((d) => [d.object, d.index, (d.embedding as number[]).length])).toEqual([
      ['embedding', 0, 256],
      ['embedding', 1, 256],
    ]);
    expect(body.data[0]!.embedding).not.toEqual(body.data[1]!.embedding);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('answers base64 of the same float32 values, and shorter vectors when asked', async () => {
    const floats = (await (await post({ model: 'mock/mock-embed', input: 'hello' })).json()) as EmbeddingList;
    const base64 = (await (await post({ model: 'mock-embed', input: 'hello', encoding_format: 'base64', dimensions: 256 })).json()) as EmbeddingList;
    const bytes = Buffer.from(base64.data[0]!.embedding as string, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(floats.data[0]!.embedding);
    const short = (await (await post({ model: 'mock/mock-embed', input: 'hello', dimensions: 8 })).json()) as EmbeddingList;
    expect((short.data[0]!.embedding as number[]).length).toBe(8);
  });

  it('refuses chat models with 404 model_not_found, a missing input with 400, chat-only keys with 403', async () => {
    const chat = await post({ model: 'mock/mock-value', input: 'x' });
    expect(chat.status).toBe(404);
    expect(((await chat.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((await post({ model: 'auto' })).status).toBe(400);
    const chatOnly = await test.keyWith(['inference:chat']);
    expect((await post({ model: 'auto', input: 'x' }, chatOnly)).status).toBe(403);
  });
});
