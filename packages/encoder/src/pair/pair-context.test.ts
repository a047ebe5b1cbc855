import { contextRoleModel, isRoleReader, scorePair, shippedPairReader } from '@svc/semantic';
import { afterAll, describe, expect, it } from 'vitest';
import { createSentenceEncoder } from '../sentence-encoder.js';
import { CONTEXT_PAIR_ID, pairModelData } from './pair-model-data.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the pair model with the fixed projection (pairContext, the default)', () => {
  const plain = createSentenceEncoder({ pairContext: false });
  const wide = createSentenceEncoder();
  afterAll(() => Promise.all([plain.close(), wide.close()]));

  it('emits the pair model numbers then 64 of the fixed projection under a new id, vectors and grid scores unchanged', async () => {
    const [a, b] = ['Which flights leave Boston for Denver before noon?', 'Which flights leave Denver for Boston before noon?'];
    const reader = wide.pairReader!;
    expect([reader.id, reader.dimensions, reader.context?.from]).toEqual([CONTEXT_PAIR_ID, pairModelData().head.d + 64, pairModelData().head.d]);
    const [[va, vb], [pa, pb]] = await Promise.all([wide.embed([a, b]), plain.embed([a, b])]);
    expect(dot(va!, pa!)).toBeCloseTo(1, 5);
    const head = pairModelData().head;
    const [wa, wb, ga, gb] = await Promise.all([reader.features(a), reader.features(b), plain.pairReader!.features(a), plain.pairReader!.features(b)]);
    expect(scorePair(head, wa, wb, dot(va!, vb!))).toBeCloseTo(scorePair(head, ga, gb, dot(pa!, pb!)), 4);
    expect(reader.context!.table(wa.ids[0]!)).toHaveLength(64);
  });

  it('is judged by role model v3, which refuses the swap and serves the same question', async () => {
    const judge = shippedPairReader(wide.pairReader)!;
    expect(isRoleReader(judge)).toBe(true);
    expect(judge.threshold).toBe(contextRoleModel().threshold);
    const stored = 'Which flights leave Boston for Denver before noon?';
    const swapped = 'Which flights leave Denver for Boston before noon?';
    const [vs, vw] = await wide.embed([stored, swapped]);
    const [fs, fw] = await Promise.all([judge.features(stored), judge.features(swapped)]);
    expect(judge.score(fw, fs, dot(vw!, vs!))).toBeLessThan(judge.threshold);
    expect(judge.score(fs, fs, 1)).toBeGreaterThanOrEqual(judge.threshold);
  });
});
