import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from './hashed-embedder.js';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

describe('hashed n-gram embedder', () => {
  const embedder = createHashedEmbedder();

  it('is the calibrated default: 512 dimensions under a stable id', () => {
    expect(embedder.id).toBe('hashed-ngram-v1-512');
    expect(embedder.dimensions).toBe(512);
  });

  it('is deterministic across instances (no seed, no state between calls)', async () => {
    const other = createHashedEmbedder();
    const [a, b] = await embedder.embed(['How do I reverse a list in Python?', 'What is the capital of France?']);
    const [a2] = await other.embed(['How do I reverse a list in Python?']);
    expect(Array.from(a2!)).toEqual(Array.from(a!));
    expect(Array.from(embedder.embedOne('How do I reverse a list in Python?'))).toEqual(Array.from(a!));
    expect(cosine(a!, b!)).toBeLessThan(0.5);
  });

  it('keeps its vectors: a change to the features must come with a new id', () => {
    // A golden fingerprint of one vector; stored vectors and the calibrated threshold depend on it.
    const v = embedder.embedOne('What is the capital of France?');
    const nonZero = v.reduce((n, x) => n + (x !== 0 ? 1 : 0), 0);
    const fingerprint = v.reduce((s, x, i) => s + x * ((i % 7) - 3), 0);
    expect(nonZero).toBe(GOLDEN_NON_ZERO);
    expect(fingerprint).toBeCloseTo(GOLDEN_FINGERPRINT, 5);
  });

  it('returns unit vectors, and a zero vector for a text without words', async () => {
    const [short, long, empty] = await embedder.embed(['hi', 'word '.repeat(2000) + 'many distinct words '.repeat(50) + Array.from({ length: 800 }, (_, i) => `w${i}`).join(' '), ' ?! ']);
    expect(norm(short!)).toBeCloseTo(1, 5);
    expect(norm(long!)).toBeCloseTo(1, 5);
    expect(norm(empty!)).toBe(0);
  });

  it('ignores case, spacing and punctuation, and sees through inflections', () => {
    const base = embedder.embedOne('How do I reverse a list in Python?');
    expect(cosine(base, embedder.embedOne('how do i   reverse a list in python'))).toBeCloseTo(1, 5);
    expect(cosine(base, embedder.embedOne('How do I reverse lists in Python?'))).toBeGreaterThan(0.9);
    expect(cosine(base, embedder.embedOne('What is the best pizza in Naples?'))).toBeLessThan(0.3);
  });

  it('tells C++ from C and a negated question from the plain one', () => {
    const cpp = embedder.embedOne('What are the functions of preprocessor directives in C++?');
    expect(cosine(cpp, embedder.embedOne('What are the functions of preprocessor directives in C?'))).toBeLessThan(0.99);
    const plain = embedder.embedOne('Should an American move to Europe?');
    expect(cosine(plain, embedder.embedOne('Should an American not move to Europe?'))).toBeLessThan(0.95);
  });

  it('validates its options and names non-default settings in the id', () => {
    expect(() => createHashedEmbedder({ dimensions: 500 })).toThrow(/power of two/);
    expect(() => createHashedEmbedder({ charNgrams: { min: 4, max: 3 } })).toThrow(/charNgrams/);
    const small = createHashedEmbedder({ dimensions: 256 });
    expect(small.id).not.toBe(embedder.id);
    expect(small.embedOne('x y z')).toHaveLength(256);
  });
});

const GOLDEN_NON_ZERO = 61;
const GOLDEN_FINGERPRINT = -1.52306326;
