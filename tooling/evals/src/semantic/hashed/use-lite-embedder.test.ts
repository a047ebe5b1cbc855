import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the evaluation’s local neural encoder (use-lite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'use-lite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('puts paraphrases with few shared words close, another entity further, and keeps vectors in its file', async () => {
    const file = join(dir, 'vectors.bin');
    const encoder = createUseLiteEmbedder(file);
    const texts = ['How do I lose weight fast?', 'How can I lose weight quickly?', 'What is the capital of France?', 'What is the capital of Spain?'];
    const [fast, quickly, france, spain] = await encoder.embed(texts);
    for (const v of [fast!, quickly!, france!, spain!]) expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    expect(cosine(fast!, quickly!)).toBeGreaterThan(0.95);
    expect(cosine(france!, spain!)).toBeLessThan(0.9);
    expect(cosine(fast!, france!)).toBeLessThan(0.5);
    encoder.flush();
    const reread = await createUseLiteEmbedder(file).embed([texts[1]!]);
    expect(Array.from(reread[0]!)).toEqual(Array.from(quickly!));
  });
});
