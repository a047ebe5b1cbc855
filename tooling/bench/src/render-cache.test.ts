import { describe, expect, it } from 'vitest';
import type { CacheBenchReport, CacheRun, CacheVariant } from './cache-figures.js';
import { fakeMeasurement } from './fixtures.js';
import { renderCache, renderCacheRuns, renderSemanticCost } from './render-cache.js';
import type { SemanticCost } from './semantic-cost.js';

const machine = { date: '2026-11-21T10:00:00.000Z', nproc: 2, cpuModel: 'Test CPU', node: 'v20.20.2', kernel: '6.1', loadAvgAtStart: [2.5, 3, 3], gitCommit: 'abc1234' };
const settings = { durationSec: 10, warmupSec: 2, tokens: 16, pinning: 'not pinned' };

function run(variant: CacheVariant, v: { rps: number; p50: number; p99: number; cpuUs: number }, upstream: number, hits: number): CacheRun {
  const measurement = { ...fakeMeasurement('svc', 1, { ...v, rssMb: 400 }), upstreamRequests: upstream };
  const requests = variant === 'hit' || variant === 'miss' ? v.rps * 10 : 0;
  return {
    variant,
    measurement,
    cache: { requests, l0Hits: hits, l1Hits: 0, semanticHits: 0, misses: requests - hits, semanticLookups: variant === 'miss' ? requests : 0 },
    semanticEntries: 2_000,
  };
}

const semantic: SemanticCost = {
  embedder: 'hashed-ngram-v1-512',
  dimensions: 512,
  threshold: 0.9,
  verifierThreshold: 0.912,
  embed: { count: 100, mean: 12, p50: 11.5, p90: 20, p99: 51, max: 80 },
  rows: [{ entries: 2_000, lookups: 2_000, hits: 0, lookup: { count: 2_000, mean: 300, p50: 260, p90: 400, p99: 900, max: 4_000 }, lookupCpuUs: 280, store: { count: 2_000, mean: 30, p50: 25.3, p90: 40, p99: 120, max: 500 } }],
};

const report: CacheBenchReport = {
  model: 'openai/gpt-4o-mini',
  semanticCapacity: 2_000,
  scenarios: [
    {
      connections: 1,
      runs: {
        hit: run('hit', { rps: 2_000, p50: 0.3, p99: 1, cpuUs: 250 }, 0, 20_000),
        miss: run('miss', { rps: 800, p50: 1.2, p99: 4, cpuUs: 1_000 }, 8_000, 0),
        cacheOff: run('cacheOff', { rps: 1_000, p50: 0.8, p99: 3, cpuUs: 600 }, 10_000, 0),
        proxy: run('proxy', { rps: 1_100, p50: 0.7, p99: 2.5, cpuUs: 550 }, 11_000, 0),
      },
    },
  ],
  semantic,
  skipped: [],
};

describe('renderCacheRuns', () => {
  it('shows every kind with its upstream calls and hit rate, then the differences', () => {
    const text = renderCacheRuns(report);
    expect(text).toContain('| JSON, 1 conn | exact hit (`full`, one stored body) | 2000 | 0.30 | 1.00 | 250 | 0.00 | 100.0% |  | 0 |');
    expect(text).toContain('| JSON, 1 conn | miss (`full`, unique bodies) | 800 | 1.20 | 4.00 | 1000 | 1.00 | 0.0% | 2,000 | 0 |');
    expect(text).toContain('| JSON, 1 conn | `proxy`, unique bodies | 1100 | 0.70 | 2.50 | 550 | 1.00 | – |  | 0 |');
    expect(text).toContain('| JSON, 1 conn | 0.25× | 0.25× | 2.50× | 0.25× | +0.40 | +1.00 | +400 | +0.50 | +1.50 | +450 |');
  });
});

describe('renderSemanticCost', () => {
  it('states the embedder, its floor and verifier, and the cost per store size', () => {
    const text = renderSemanticCost(semantic);
    expect(text).toContain('embedder `hashed-ngram-v1-512` (512 dimensions, candidates from cosine 0.900, verifier at 0.912)');
    expect(renderCache({ ...report, semantic: { ...semantic, verifierThreshold: null, threshold: 0.95 } }, machine, settings)).toContain('(512 dimensions, threshold 0.950)');
    expect(text).toContain('| 2,000 | 2,000 | 0 | 260.0 | 400.0 | 900.0 | 300.0 | 280.0 | 25.3 | 120.0 |');
  });
});

describe('renderCache', () => {
  it('starts with the run line and says why runs are missing', () => {
    const text = renderCache({ ...report, scenarios: [], skipped: ['svc never got ready'] }, machine, settings);
    expect(text.startsWith('Run 2026-11-21 10:00 UTC at commit `abc1234`; 2 CPUs (Test CPU)')).toBe(true);
    expect(text).toContain('load average at start 2.5 / 3 / 3');
    expect(text).toContain('- **cache runs not measured:** svc never got ready');
    expect(text).not.toContain('| scenario | requests |');
    expect(renderCache(report, machine, settings)).toContain('semantic cache over the in-process store of 2,000 entries');
  });
});
