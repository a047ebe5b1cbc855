import { afterAll, describe, expect, it } from 'vitest';
import { createSentenceEncoder } from './sentence-encoder.js';
import { packTokens, unpackTokens } from './token-states.js';

const D = 384;
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const row = (states: Float32Array, i: number) => states.subarray(i * D, (i + 1) * D);
const cosine = (a: Float32Array, b: Float32Array) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

describe('token states (embedWithTokens)', () => {
  const encoder = createSentenceEncoder({ cacheSize: 0 });
  afterAll(() => encoder.close());

  it('returns the vectors embed returns, with one state per word piece between [CLS] and [SEP]', async () => {
    const texts = ['How do I lose weight?', 'How do I lose weight fast without exercise?', 'x'];
    const [withTokens, plain] = await Promise.all([encoder.embedWithTokens(texts), encoder.embed(texts)]);
    for (const [i, { vector, tokens }] of withTokens.entries()) {
      expect(dot(vector, plain[i]!)).toBeGreaterThan(0.99999);
      expect(tokens.states).toHaveLength(tokens.ids.length * D);
    }
    expect(withTokens.map((t) => t.tokens.ids.length)).toEqual([6, 9, 1]);
    // The shared prefix has the same word pieces in both questions.
    expect(Array.from(withTokens[0]!.tokens.ids.subarray(0, 5))).toEqual(Array.from(withTokens[1]!.tokens.ids.subarray(0, 5)));
  });

  it('gives the same word in two paraphrases closer states than two different words', async () => {
    const [a, b] = await encoder.embedWithTokens(['What is the capital of France?', 'Which city is the capital of France?']);
    const franceA = row(a!.tokens.states, 5);
    const franceB = row(b!.tokens.states, 6);
    const what = row(a!.tokens.states, 0);
    expect(cosine(franceA, franceB)).toBeGreaterThan(0.8);
    expect(cosine(franceA, franceB)).toBeGreaterThan(cosine(franceA, what) + 0.2);
  });

  it('packs and unpacks without loss', () => {
    const texts = [
      { ids: Int32Array.from([1, 2]), states: Float32Array.from({ length: 2 * D }, (_, i) => i) },
      { ids: new Int32Array(0), states: new Float32Array(0) },
      { ids: Int32Array.from([7]), states: Float32Array.from({ length: D }, (_, i) => -i) },
    ];
    const back = unpackTokens(packTokens(texts, D), D);
    expect(back.map((t) => Array.from(t.ids))).toEqual([[1, 2], [], [7]]);
    expect(back.map((t) => Array.from(t.states))).toEqual(texts.map((t) => Array.from(t.states)));
  });
});
