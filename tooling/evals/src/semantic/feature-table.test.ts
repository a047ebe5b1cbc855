import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSentenceEncoder, type SentenceEncoder } from '@svc/encoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFeatureTable, writeFeatureTable } from './feature-table.js';
import { tableEmbedder } from './vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-feature-table-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the feature table', () => {
  it('keeps float features exactly', () => {
    const features = [
      { count: 2, dimensions: 3, ids: Int32Array.from([101, 2054]), values: Float32Array.from([0.1, -0.2, 1e-7, 3.25, -0.001, 0.3333]) },
      { count: 1, dimensions: 3, ids: Int32Array.from([7]), values: Float32Array.from([0.5, 0.25, -0.125]) },
    ];
    writeFeatureTable(join(dir, 't.features'), { model: 'm', fingerprint: 'f', dimensions: 3, features });
    const back = readFeatureTable(join(dir, 't.features'));
    expect(back?.features.map((f) => [Array.from(f.ids), Array.from(f.values)])).toEqual(features.map((f) => [Array.from(f.ids), Array.from(f.values)]));
  });
});

describe("the evaluation's embedder reads what the gateway reads", () => {
  let encoder: SentenceEncoder;
  beforeAll(async () => {
    encoder = createSentenceEncoder();
    await encoder.ready;
  });
  afterAll(() => encoder.close());

  it("gives a question's float features and vector as the encoder computes them for that question alone, and again from its file", async () => {
    const texts = ['flights from Boston to Denver on Friday', 'flights from Denver to Boston on Friday', 'What is the capital city of France?'];
    const file = join(dir, 'v.bin');
    for (const round of [1, 2]) {
      const table = await tableEmbedder('minilm', texts, file);
      for (const text of texts) {
        const [mine, theirs] = [await table.basePairReader!.features(text), await encoder.pairReader!.features(text)];
        expect(Array.from(mine.ids), `round ${round}`).toEqual(Array.from(theirs.ids));
        // Float, bit for bit: the int8 copy the evaluation kept before differed in the third decimal.
        expect(Array.from(mine.values), `round ${round}`).toEqual(Array.from(theirs.values));
        expect(Array.from((await table.embed([text]))[0]!)).toEqual(Array.from((await encoder.embed([text]))[0]!));
      }
    }
  }, 120_000);
});
