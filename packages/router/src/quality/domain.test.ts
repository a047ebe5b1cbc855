import { createCatalog } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../router.js';
import { toy } from '../test/toy-quality.js';
import { type TrainingDomain, inTrainingDomain, nearestSimilarity } from './domain.js';
import { QualityModelError, parseQualityModel, serializeQualityModel } from './quality-model.js';
import { trustEverywhere } from './trust.js';

// Training prompts lay along the first axis (both directions); the second axis is unlike them.
const domain: TrainingDomain = { prototypes: Float32Array.from([1, 0, 0, 0, -1, 0, 0, 0]), count: 2, minSimilarity: 0.8, kept: 0.98 };
const specs = [
  { id: 'big/strong', inputPricePerMTok: 10, outputPricePerMTok: 30, qualityPrior: 0.85 },
  { id: 'small/weak', inputPricePerMTok: 0.1, outputPricePerMTok: 0.3, qualityPrior: 0.6 },
];
/** "hard ..." at +1 on the first axis, "alien ..." on the second (unlike the training prompts), others at -1. */
const embedder = { embed: async (texts: string[]) => texts.map((t) => Float32Array.from(t.startsWith('hard') ? [1, 0, 0, 0] : t.startsWith('alien') ? [0.3, 2, 0, 0] : [-1, 0, 0, 0])) };
const request = (content: string): ChatRequest => ({ model: 'svc/auto', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false });

describe('prompts unlike the training data read as the prior', () => {
  it('measures the cosine similarity to the nearest prototype, whatever the embedding norm', () => {
    expect(nearestSimilarity(domain, [0, 3, 0, 0])).toBeCloseTo(0, 6);
    expect(nearestSimilarity(domain, [-2, 0, 0, 0])).toBeCloseTo(1, 6);
    expect(nearestSimilarity(domain, [1, 1, 0, 0])).toBeCloseTo(Math.SQRT1_2, 6);
    expect(inTrainingDomain(domain, [1, 0.2, 0, 0])).toBe(true);
    expect(inTrainingDomain(domain, [1, 1, 0, 0])).toBe(false);
    expect(inTrainingDomain(domain, [0, 0, 0, 0])).toBe(false);
  });

  it('agrees with a plain cosine over every row, whatever the dimensions modulo four', () => {
    for (const dims of [384, 7, 3]) {
      const rows = 9;
      const draw = (seed: number) => Math.sin(seed * 12.9898) * 43758.5453 - Math.floor(Math.sin(seed * 12.9898) * 43758.5453) - 0.5;
      const prototypes = Float32Array.from({ length: rows * dims }, (_, i) => draw(i + 1));
      for (let r = 0; r < rows; r++) {
        const row = prototypes.subarray(r * dims, (r + 1) * dims);
        const length = Math.hypot(...row);
        for (let i = 0; i < dims; i++) row[i]! /= length;
      }
      const embedding = Array.from({ length: dims }, (_, i) => draw(1000 + i));
      const norm = Math.hypot(...embedding);
      let best = Number.NEGATIVE_INFINITY;
      for (let r = 0; r < rows; r++) best = Math.max(best, embedding.reduce((sum, x, i) => sum + x * prototypes[r * dims + i]!, 0) / norm);
      expect(nearestSimilarity({ prototypes, count: rows, minSimilarity: 0.5, kept: 0.9 }, embedding)).toBeCloseTo(best, 5);
    }
  });

  it('reads an in-domain prompt and falls back to the prior for one unlike the training prompts', async () => {
    const r = createRouter({ catalog: createCatalog([]), models: specs, quality: { ...toy, domain }, embedder, qualityTrust: trustEverywhere, guard: false });
    const seen = 'hard: write a Python function that parses this JSON';
    const unseen = 'alien: write a Python function that parses this JSON';
    const read = r.route(request(seen), { embedding: await r.embed(seen) });
    expect(read.qualityFallback).toBeUndefined();
    expect(read.difficulty).toBeCloseTo(3, 5);
    const prior = r.route(request(unseen), { embedding: await r.embed(unseen) });
    expect(prior.qualityFallback).toBe(true);
    expect(prior.difficulty).toBeUndefined();
    // Without the domain the same prompt is read (difficulty 0.9 from the first axis).
    const plain = createRouter({ catalog: createCatalog([]), models: specs, quality: toy, embedder, qualityTrust: trustEverywhere, guard: false });
    expect(plain.route(request(unseen), { embedding: await plain.embed(unseen) }).difficulty).toBeCloseTo(0.9, 5);
  });

  it('travels in the model file, and a file whose prototypes do not fit is refused', () => {
    const file = serializeQualityModel({ ...toy, domain });
    const parsed = parseQualityModel(file);
    expect(Array.from(parsed.domain!.prototypes)).toEqual(Array.from(domain.prototypes));
    expect(parsed.domain!.minSimilarity).toBe(0.8);
    expect(parseQualityModel(serializeQualityModel(toy)).domain).toBeUndefined();
    expect(() => parseQualityModel({ ...file, domain: { ...file.domain!, count: 3 } })).toThrow(QualityModelError);
  });
});
