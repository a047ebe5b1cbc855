import { describe, expect, it } from 'vitest';
import { decodeEmbeddingsRequest } from './decode-embeddings-request.js';
import { encodeEmbeddings } from './encode-embeddings.js';

const errorOf = (body: unknown) => {
  try {
    decodeEmbeddingsRequest(body);
  } catch (error) {
    return error as { status: number; param: string | null };
  }
  throw new Error('expected a 400');
};

describe('decodeEmbeddingsRequest', () => {
  it('turns one string into one text and defaults to float', () => {
    expect(decodeEmbeddingsRequest({ model: 'auto', input: 'hi' })).toEqual({ model: 'auto', input: ['hi'], encodingFormat: 'float' });
    expect(decodeEmbeddingsRequest({ model: 'm', input: ['a', 'b'], encoding_format: 'base64', dimensions: 8, user: 'u' })).toEqual({
      model: 'm',
      input: ['a', 'b'],
      encodingFormat: 'base64',
      dimensions: 8,
      user: 'u',
    });
  });

  it('refuses missing fields, empty and token inputs, and unknown formats', () => {
    expect(errorOf({ input: 'x' })).toMatchObject({ status: 400, param: 'model' });
    expect(errorOf({ model: 'm' })).toMatchObject({ status: 400, param: 'input' });
    expect(errorOf({ model: 'm', input: [] })).toMatchObject({ status: 400, param: 'input' });
    expect(errorOf({ model: 'm', input: [[1, 2]] })).toMatchObject({ status: 400, param: 'input.0' });
    expect(errorOf({ model: 'm', input: '' })).toMatchObject({ status: 400, param: 'input' });
    expect(errorOf({ model: 'm', input: 'x', encoding_format: 'int8' })).toMatchObject({ status: 400, param: 'encoding_format' });
  });
});

describe('encodeEmbeddings', () => {
  const vectors = [new Float32Array([0.5, -0.25]), new Float32Array([1, 0])];
  const meta = { model: 'mock/mock-embed', usage: { promptTokens: 4, totalTokens: 4 } };

  it('lists the vectors in input order as numbers', () => {
    expect(encodeEmbeddings(vectors, { ...meta, encodingFormat: 'float' })).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.5, -0.25] },
        { object: 'embedding', index: 1, embedding: [1, 0] },
      ],
      model: 'mock/mock-embed',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
  });

  it('encodes base64 as little-endian float32 bytes', () => {
    const body = encodeEmbeddings(vectors, { ...meta, encodingFormat: 'base64' });
    const bytes = Buffer.from(body.data[0]!.embedding as string, 'base64');
    expect(bytes.length).toBe(8);
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([0.5, -0.25]);
  });
});
