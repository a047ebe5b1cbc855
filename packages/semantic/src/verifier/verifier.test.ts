import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../embedder/hashed-embedder.js';
import { sameKeyTerms } from '../entity-guard.js';
import { featureNames } from './pair-features.js';
import { trainedVerifier, trainedVerifierData } from './trained.js';
import { createVerifier } from './verifier.js';
import { WordWeights } from './word-weights.js';

const embedder = createHashedEmbedder();
const verifier = trainedVerifier(embedder.id)!;
const cosine = (a: string, b: string) => embedder.embedOne(a).reduce((s, x, i) => s + x * embedder.embedOne(b)[i]!, 0);

/** The cache's decision for a stored question and a query: floor, key-term guard, verifier. */
function served(storedQuestion: string, query: string): boolean {
  const [q, c] = [verifier.profile(query), verifier.profile(storedQuestion)];
  const similarity = cosine(query, storedQuestion);
  return similarity >= verifier.candidateFloor && sameKeyTerms(q.terms, c.terms) && verifier.score(q, c, similarity) >= verifier.threshold;
}

describe('the trained verifier of the hashed embedder', () => {
  it('is committed with its recipe, over the features the code computes', () => {
    const data = trainedVerifierData(embedder.id)!;
    expect(data.features).toEqual([...featureNames]);
    expect(data.about).toMatch(/eval --train/);
    expect(verifier.threshold).toBeGreaterThan(0.5);
    expect(verifier.threshold).toBeLessThan(1);
    expect(verifier.candidateFloor).toBeGreaterThan(0.5);
  });

  it('serves a rewording or a respelling of the same question', () => {
    expect(served('How do I gain self-confidence?', 'How do I gain self confidence?')).toBe(true);
    expect(served('How do I reverse a list in Python?', 'How can I reverse a list in Python?')).toBe(true);
    expect(served('What is the capital of France?', 'what is the capital of france')).toBe(true);
  });

  it('refuses near-verbatim questions that ask something else', () => {
    expect(served('What is the capital of France?', 'What is the capital of Spain?')).toBe(false);
    expect(served('How is Apple better than Samsung?', 'How is Samsung better than Apple?')).toBe(false);
    expect(served('Why do I still love him?', 'Why do I still love her?')).toBe(false);
    expect(served("Why is Donald Trump's candidacy good for democracy?", "Why isn't Donald Trump's candidacy good for democracy?")).toBe(false);
    expect(served('What are the best books to learn machine learning?', 'What are the worst books to learn machine learning?')).toBe(false);
    expect(served('How do I reverse a list in Python?', 'How do I reverse a list in Python 3?')).toBe(false);
  });

  it('refuses a model whose features are not the ones computed, or of the wrong shape', () => {
    const data = trainedVerifierData(embedder.id)!;
    expect(() => createVerifier({ ...data, features: data.features.slice(1) })).toThrow(/retrain/);
    expect(() => createVerifier({ ...data, trees: [{ feature: [0], threshold: [0], leaf: [0, 0] }] })).toThrow(/wrong shape/);
    expect(() => createVerifier({ ...data, threshold: 1 })).toThrow(/threshold/);
  });
});

describe('WordWeights', () => {
  it('weighs rare words above common ones and survives its base64 form', () => {
    const documents = [...Array.from({ length: 99 }, () => ['how', 'do', 'i']), ['how', 'zebra']].map((d) => new Set(d));
    const weights = WordWeights.learn(documents, 1024);
    expect(weights.weight('zebra')).toBeGreaterThan(weights.weight('how') + 3);
    expect(WordWeights.fromBase64(weights.toBase64()).weight('zebra')).toBe(weights.weight('zebra'));
    expect(() => new WordWeights(new Uint8Array(1000))).toThrow(/power of two/);
  });
});
