import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { modelFromSpec } from './model-spec.js';
import { parseQualityModel, serializeQualityModel } from './quality/quality-model.js';
import { shippedQualityModel } from './quality/shipped.js';
import { createRouter } from './router.js';
import { ask, fixtureCatalog } from './test/fixture-catalog.js';
import { trustEverywhere } from './quality/trust.js';
import { toy, toyEmbedder as embedder } from './test/toy-quality.js';

const specs = [
  { id: 'big/strong', inputPricePerMTok: 10, outputPricePerMTok: 30, qualityPrior: 0.85 },
  { id: 'small/weak', inputPricePerMTok: 0.1, outputPricePerMTok: 0.3, qualityPrior: 0.6 },
];
const router = () => createRouter({ catalog: createCatalog([]), models: specs, quality: toy, embedder });

describe('winRate and rank', () => {
  it('gives the strong model a higher win rate on hard prompts, within 0..1', async () => {
    const r = router();
    const hard = await r.winRate('hard: prove the theorem', 'big/strong', 'small/weak');
    const easy = await r.winRate('easy: say hi', 'big/strong', 'small/weak');
    expect(hard).toBeGreaterThan(easy);
    for (const w of [hard, easy]) {
      expect(w).toBeGreaterThanOrEqual(0);
      expect(w).toBeLessThanOrEqual(1);
    }
    expect(await r.winRate('hard', 'small/weak', 'big/strong')).toBeCloseTo(1 - hard, 10);
  });

  it('ranks candidates best first with scores, optionally a subset; unknown ids are model_not_found', async () => {
    const r = createRouter({ catalog: fixtureCatalog(), quality: toy, embedder });
    const ranked = await r.rank('hard: design a consensus protocol');
    expect(ranked.length).toBe(fixtureCatalog().list().length);
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
    const two = await r.rank('hard', { candidates: ['acme/mini', 'acme/opus'] });
    expect(two.map((c) => c.id).sort()).toEqual(['acme/mini', 'acme/opus']);
    await expect(r.winRate('x', 'nope/none', 'acme/mini')).rejects.toMatchObject({ code: 'model_not_found' });
  });
});

describe('strong-share routing', () => {
  it('routes by threshold and by a calibrated share of strong calls', async () => {
    const r = router();
    const embedding = await r.embed('hard: a proof');
    const easyEmbedding = await r.embed('easy');
    const strongShare = (share: number, e: Float32Array | undefined) => r.route(ask('x'), { embedding: e, strongShare: share, strongModel: 'big/strong', weakModel: 'small/weak' }).model.id;
    expect(strongShare(0, embedding)).toBe('small/weak');
    expect(strongShare(1, easyEmbedding)).toBe('big/strong');
    expect(strongShare(0.5, embedding)).toBe('big/strong');
    expect(strongShare(0.5, easyEmbedding)).toBe('small/weak');
    const decision = r.route(ask('x'), { embedding, threshold: 0.99 });
    expect(decision.cascade).toMatchObject({ strong: 'big/strong', weak: 'small/weak' });
    expect(decision.model.id).toBe('small/weak');
  });

  it('calibrates a threshold on given prompts so that the share goes strong (RouteLLM calibration)', async () => {
    const r = router();
    const prompts = ['hard 1', 'hard 2', 'easy 1', 'easy 2'];
    const threshold = await r.calibrate(prompts, 0.5, 'big/strong', 'small/weak');
    const wins = await Promise.all(prompts.map((p) => r.winRate(p, 'big/strong', 'small/weak')));
    expect(wins.filter((w) => w >= threshold)).toHaveLength(2);
    expect(r.thresholdFor(0.5, 'big/strong', 'small/weak')).toBeGreaterThan(0.5);
  });
});

describe('models from a minimal spec', () => {
  it('fills the documented defaults', () => {
    const m = modelFromSpec({ id: 'acme/new', inputPricePerMTok: 1, outputPricePerMTok: 2 });
    expect(m).toMatchObject({ tier: 'T2', contextWindow: 128_000, qualityPrior: 0.75, maxOutputTokens: 16_384, capabilities: [], kind: 'chat', provider: 'acme' });
    expect(modelFromSpec({ id: 'x', inputPricePerMTok: 0, outputPricePerMTok: 0, qualityPrior: 0.9 })).toMatchObject({ tier: 'T1', free: true });
    expect(modelFromSpec({ id: 'y', inputPricePerMTok: 1, outputPricePerMTok: 1, tier: 'T3' }).qualityPrior).toBe(0.6);
    expect(() => modelFromSpec({ id: 'z', inputPricePerMTok: -1, outputPricePerMTok: 1 })).toThrow(RangeError);
  });
});

describe('the quality model file', () => {
  it('round-trips through its serialised form, and the shipped model loads without I/O', () => {
    const back = parseQualityModel(JSON.parse(JSON.stringify(serializeQualityModel(toy))));
    expect(Array.from(back.embeddingWeights)).toEqual(Array.from(toy.embeddingWeights));
    const shipped = shippedQualityModel();
    expect(shipped.dimensions).toBe(384);
    expect(() => parseQualityModel({ ...serializeQualityModel(toy), textWeights: '' })).toThrow(/shapes/);
  });

  it('without an embedder the text-only head answers, and quality: false refuses winRate', async () => {
    // Every family trusted: the head's own reading (the shipped table sends maths and chat to the prior).
    const r = createRouter({ catalog: fixtureCatalog(), embedder: false, qualityTrust: trustEverywhere });
    const w = await r.winRate('Prove that there are infinitely many primes.', 'acme/opus', 'fast/tiny');
    expect(w).toBeGreaterThan(0.5);
    const hard = await r.winRate('Let f be continuous on [0,1] with f(0)=0. Prove that the integral of f(x)^2 dx is at most the integral of f\'(x)^2 dx, and compute the constant.', 'acme/opus', 'fast/tiny');
    expect(hard).toBeGreaterThan(await r.winRate('hi', 'acme/opus', 'fast/tiny'));
    const none = createRouter({ catalog: fixtureCatalog(), quality: false, embedder: false });
    await expect(none.winRate('x', 'acme/opus', 'fast/tiny')).rejects.toThrow(/quality model/);
  });
});
