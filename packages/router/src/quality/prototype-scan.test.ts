import { describe, expect, it } from 'vitest';
import { scanInJs } from './domain.js';
import { createPrototypeScanner } from './prototype-scan.js';
import { shippedQualityModel } from './shipped.js';

describe('the prototype scan in WebAssembly', () => {
  const domain = shippedQualityModel().domain!;
  const dims = domain.prototypes.length / domain.count;
  const scanner = createPrototypeScanner(domain.prototypes, domain.count, dims);

  it('runs here (Node has WebAssembly SIMD), and not for dimensions that are not a multiple of four', () => {
    expect(scanner).toBeTypeOf('function');
    expect(createPrototypeScanner(Float32Array.from([1, 0, 0]), 1, 3)).toBeUndefined();
  });

  it("gives the JavaScript scan's dot product bit for bit, where it stops early and where it reads every prototype", () => {
    let seed = 7;
    const draw = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let early = 0;
    for (let k = 0; k < 500; k++) {
      // A prototype's direction mixed with noise: some prompts near one (an early stop), some unlike all.
      const near = Math.floor(draw() * domain.count);
      const mix = draw();
      const embedding = Float32Array.from({ length: dims }, (_, i) => mix * domain.prototypes[near * dims + i]! + (draw() - 0.5) * 0.1);
      const norm = Math.sqrt(embedding.reduce((sum, x) => sum + x * x, 0));
      for (const enough of [Number.POSITIVE_INFINITY, domain.minSimilarity, 0.5]) {
        const scaled = enough * norm;
        const expected = scanInJs(domain, embedding, scaled);
        expect(Object.is(scanner!(embedding, scaled), expected)).toBe(true);
        if (expected >= scaled) early++;
      }
    }
    expect(early).toBeGreaterThan(100);
  });
});
