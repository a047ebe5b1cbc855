import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { type Embeddings, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(() => mock.close());

describe('POST /v1/embeddings', () => {
  it('returns one unit vector per input, deterministic per text', async () => {
    const res = await post(`${mock.url}/v1/embeddings`, {
      model: 'text-embedding-3-small',
      input: ['a', 'b', 'a'],
      dimensions: 8,
    });
    const body = await readJson<Embeddings<number[]> & { model: string }>(res);
    expect(body).toMatchObject({ object: 'list', model: 'text-embedding-3-small' });
    expect(body.data).toHaveLength(3);
    const [a, b, a2] = body.data.map((d: { embedding: number[] }) => d.embedding);
    expect(a).toHaveLength(8);
    expect(a).toEqual(a2);
    expect(a).not.toEqual(b);
    const norm = Math.sqrt(a!.reduce((s: number, v: number) => s + v * v, 0));
    expect(norm).toBeCloseTo(1, 5);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('defaults to 1536 dimensions and encodes base64 as little-endian float32', async () => {
    const float = await readJson<Embeddings<number[]>>(await post(`${mock.url}/v1/embeddings`, { model: 'm', input: 'hi' }));
    const b64 = await readJson<Embeddings<string>>(
      await post(`${mock.url}/v1/embeddings`, { model: 'm', input: 'hi', encoding_format: 'base64' }),
    );
    expect(float.data[0]?.embedding).toHaveLength(1536);
    const bytes = Buffer.from(b64.data[0]?.embedding ?? '', 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(float.data[0]?.embedding);
  });

  it('rejects an empty input', async () => {
    const res = await post(`${mock.url}/v1/embeddings`, { model: 'm', input: [] });
    expect(res.status).toBe(400);
  });
});
