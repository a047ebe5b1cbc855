import { describe, expect, it } from 'vitest';
import { type CacheCounts, type CacheRun, type CacheScenario, type CacheVariant, cacheBody, cacheFigures, countsBetween, hitRate } from './cache-figures.js';
import { QUESTION_TEMPLATES, cacheQuestion } from './cache-questions.js';
import { fakeMeasurement } from './fixtures.js';

const counts = (c: Partial<CacheCounts>): CacheCounts => ({ requests: 0, l0Hits: 0, l1Hits: 0, semanticHits: 0, misses: 0, semanticLookups: 0, ...c });

function run(variant: CacheVariant, v: { rps: number; p50: number; p99: number; cpuUs: number }): CacheRun {
  return { variant, measurement: fakeMeasurement('svc', 1, { ...v, rssMb: 400 }), cache: undefined, semanticEntries: undefined };
}

const scenario: CacheScenario = {
  connections: 1,
  runs: {
    hit: run('hit', { rps: 2_000, p50: 0.3, p99: 1, cpuUs: 250 }),
    miss: run('miss', { rps: 800, p50: 1.2, p99: 4, cpuUs: 1_000 }),
    cacheOff: run('cacheOff', { rps: 1_000, p50: 0.8, p99: 3, cpuUs: 600 }),
    proxy: run('proxy', { rps: 1_100, p50: 0.7, p99: 2.5, cpuUs: 550 }),
  },
};

describe('cacheFigures', () => {
  it('compares the hit with the miss and charges the miss against cache off and proxy', () => {
    const f = cacheFigures(scenario);
    expect(f.hitVsMiss).toEqual({ p50: 0.25, p99: 0.25, rps: 2.5, cpu: 0.25 });
    expect(f.cacheStage).toEqual({ p50Ms: expect.closeTo(0.4, 9), p99Ms: 1, cpuUs: 400 });
    expect(f.missVsProxy).toEqual({ p50Ms: expect.closeTo(0.5, 9), p99Ms: 1.5, cpuUs: 450 });
  });

  it('leaves out what a missing run cannot give', () => {
    const f = cacheFigures({ connections: 1, runs: { miss: scenario.runs.miss! } });
    expect(f.hitVsMiss.p50).toBeUndefined();
    expect(f.cacheStage).toBeUndefined();
    expect(f.missVsProxy).toBeUndefined();
  });
});

describe('cache counters', () => {
  it('subtracts two readings and rates the hits of every layer', () => {
    const delta = countsBetween(counts({ requests: 10, l0Hits: 4, misses: 6 }), counts({ requests: 110, l0Hits: 94, l1Hits: 2, semanticHits: 4, misses: 10, semanticLookups: 8 }));
    expect(delta).toEqual({ requests: 100, l0Hits: 90, l1Hits: 2, semanticHits: 4, misses: 4, semanticLookups: 8 });
    expect(hitRate(delta)).toBe(0.96);
  });
  it('has no hit rate when nothing reached the cache stage', () => {
    expect(hitRate(counts({}))).toBeUndefined();
    expect(hitRate(undefined)).toBeUndefined();
  });
});

describe('cacheQuestion', () => {
  it('never repeats a question, and repeats a template only with another number', () => {
    const questions = Array.from({ length: 3 * QUESTION_TEMPLATES }, (_, i) => cacheQuestion(i));
    expect(new Set(questions).size).toBe(questions.length);
    const templates = new Set(questions.map((q) => q.replace(/ \(request \d+\)$/, '')));
    expect(templates.size).toBe(QUESTION_TEMPLATES);
    expect(cacheQuestion(QUESTION_TEMPLATES + 5).replace(/\d+/, '')).toBe(cacheQuestion(5).replace(/\d+/, ''));
  });

  it('builds a chat body, with the cache turned off on request', () => {
    expect(JSON.parse(cacheBody('openai/gpt-4o-mini', 'hi?'))).toEqual({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi?' }] });
    expect(JSON.parse(cacheBody('m', 'hi?', true)).svc).toEqual({ enable_cache: false });
  });
});
