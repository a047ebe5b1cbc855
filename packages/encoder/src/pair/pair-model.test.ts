import { scorePair } from '@svc/semantic';
import { afterAll, describe, expect, it } from 'vitest';
import { createSentenceEncoder } from '../sentence-encoder.js';
import golden from './pair-golden.json' with { type: 'json' };
import { CONTEXT_PAIR_ID, pairModelData } from './pair-model-data.js';
import { CONTEXT_COLUMNS } from './pair-projection.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the shipped pair model on the encoder', () => {
  const encoder = createSentenceEncoder();
  afterAll(() => encoder.close());

  it('scores held-out pairs as PyTorch did at training (the graph projection and the scorer match the recipe)', async () => {
    const reader = encoder.pairReader!;
    expect(reader.id).toBe(CONTEXT_PAIR_ID);
    for (const { a, b, score } of golden) {
      const [va, vb] = await encoder.embed([a, b]);
      // `a` was stored, `b` is asked, as PyTorch read them (the head itself: no overlap gate).
      const p = scorePair(pairModelData().head, await reader.features(a), await reader.features(b), dot(va!, vb!));
      expect(Math.abs(p - score), `${a} / ${b}`).toBeLessThan(0.02);
    }
  });

  it('computes a text features with its vector: asking for them after embed runs no second pass', async () => {
    const text = 'Which flights leave Boston for Denver before noon?';
    const [vector] = await encoder.embed([text]);
    const started = performance.now();
    const features = await encoder.pairReader!.features(text);
    expect(performance.now() - started).toBeLessThan(5);
    expect(features.dimensions).toBe(pairModelData().head.d + CONTEXT_COLUMNS);
    expect(features.count).toBeGreaterThan(8);
    expect(features.ids).toHaveLength(features.count);
    expect(vector).toHaveLength(384);
  });

  it('reads who goes where: the swapped question scores lower than a rewording', async () => {
    const reader = encoder.pairReader!;
    const stored = 'Which flights leave Boston for Denver before noon?';
    const [vs, vw, vr] = await encoder.embed([stored, 'Which flights leave Denver for Boston before noon?', 'What flights depart from Boston for Denver before noon?']);
    const swapped = reader.score(await reader.features('Which flights leave Denver for Boston before noon?'), await reader.features(stored), dot(vw!, vs!));
    const reworded = reader.score(await reader.features('What flights depart from Boston for Denver before noon?'), await reader.features(stored), dot(vr!, vs!));
    expect(swapped).toBeLessThan(reworded);
  });

  it('leaves texts that share too few word pieces to the cosine: no objection', async () => {
    const reader = encoder.pairReader!;
    expect(pairModelData().minOverlap).toBeGreaterThan(0);
    const [stored, asked] = ['PyTorch has cutting-edge diffusers for the production of images and sound.', 'Which library can generate pictures and audio with diffusion models?'];
    const [vs, va] = await encoder.embed([stored, asked]);
    expect(reader.score(await reader.features(asked), await reader.features(stored), dot(va!, vs!))).toBe(1);
  });

  it('can be left out: no pair reader, vectors unchanged', async () => {
    const plain = createSentenceEncoder({ pairModel: false });
    try {
      expect(plain.pairReader).toBeUndefined();
      const [a] = await plain.embed(['How do I reset my password?']);
      const [b] = await encoder.embed(['How do I reset my password?']);
      expect(dot(a!, b!)).toBeCloseTo(1, 5);
    } finally {
      await plain.close();
    }
  });
});
