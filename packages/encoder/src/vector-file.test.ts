import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHashedEmbedder, type Embedder } from '@svc/semantic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedEmbedMany, readVectorFile, textsFingerprint, writeVectorFile } from './vector-file.js';

function counting(embedder: Embedder): Embedder & { texts: number } {
  const counted = {
    id: embedder.id,
    dimensions: embedder.dimensions,
    texts: 0,
    async embed(texts: readonly string[]) {
      counted.texts += texts.length;
      return embedder.embed(texts);
    },
  };
  return counted;
}

describe('vector files', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vectors-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('round-trips vectors with their embedder and fingerprint', async () => {
    const path = join(dir, 'a.vec');
    const vectors = [Float32Array.of(1, 2, 3), Float32Array.of(-0.5, 0, 1e-7)];
    await writeVectorFile(path, { embedder: 'e', dimensions: 3, fingerprint: 'f', vectors });
    const read = await readVectorFile(path);
    expect(read).toMatchObject({ embedder: 'e', dimensions: 3, fingerprint: 'f' });
    expect(read.vectors.map((v) => Array.from(v))).toEqual(vectors.map((v) => Array.from(v)));
  });

  it('refuses a truncated or foreign file', async () => {
    const path = join(dir, 'b.vec');
    await writeVectorFile(path, { embedder: 'e', dimensions: 2, fingerprint: 'f', vectors: [Float32Array.of(1, 2)] });
    await writeFile(path, (await readFile(path)).subarray(0, -1));
    await expect(readVectorFile(path)).rejects.toThrow(/truncated/);
    await writeFile(path, 'hello');
    await expect(readVectorFile(path)).rejects.toThrow(/not a vector file/);
  });

  it('embeds once, then serves the same texts from the file; other texts or embedders re-embed', async () => {
    const path = join(dir, 'c.vec');
    const embedder = counting(createHashedEmbedder());
    const texts = ['how do I reverse a list', 'capital of France', 'reverse a list in python'];
    const first = await cachedEmbedMany(path, embedder, texts, { batchSize: 2 });
    const second = await cachedEmbedMany(path, embedder, texts);
    expect(embedder.texts).toBe(3);
    expect(second.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    await cachedEmbedMany(path, embedder, [...texts, 'one more']);
    expect(embedder.texts).toBe(7);
    expect(textsFingerprint(['ab'])).not.toBe(textsFingerprint(['a', 'b']));
  });
});
