import { describe, expect, it } from 'vitest';
import { packModel, scoreModel } from '@svc/semantic/training';
import { trainBoostedTrees } from './boosting.js';

describe('trainBoostedTrees', () => {
  it('learns an interaction no single feature shows, deterministically', () => {
    // Positive when x0 > 0.5 XOR x1 > 0.5; x2 is noise.
    const rows = Array.from({ length: 2000 }, (_, i) => Float64Array.of(((i * 37) % 100) / 100, ((i * 61) % 97) / 97, ((i * 13) % 89) / 89));
    const labels = rows.map((r) => r[0]! > 0.5 !== r[1]! > 0.5);
    const settings = { trees: 60, depth: 2, learningRate: 0.3, lambda: 1, minLeaf: 10, bins: 32 };
    const trained = trainBoostedTrees(rows, labels, settings);
    expect(trainBoostedTrees(rows, labels, settings)).toEqual(trained);
    const model = packModel({ about: '', embedder: 'test', features: ['a', 'b', 'c'], depth: 2, threshold: 0.5, candidateFloor: 0, ...trained });
    const right = rows.filter((r, i) => scoreModel(model, r) >= 0.5 === labels[i]).length;
    expect(right / rows.length).toBeGreaterThan(0.97);
    expect(scoreModel(model, [0.9, 0.1, 0.5])).toBeGreaterThan(0.9);
    expect(scoreModel(model, [0.9, 0.9, 0.5])).toBeLessThan(0.1);
  });
});
