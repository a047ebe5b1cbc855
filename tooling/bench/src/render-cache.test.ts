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

const step = (p50: number, p99: number, cpuUs: number) => ({ wall: { count: 300, mean: p50, p50, p90: p99, p99, max: p99 }, cpuUs });
const semantic: SemanticCost = {
  embedder: 'all-MiniLM-L6-v2',
  dimensions: 384,
  threshold: 0.85,
  verifierThreshold: null,
  embed: step(4100, 9000, 5200),
  rows: [{ entries: 10_000, lookups: 300, hits: 0, search: step(480, 900, 510), lookup: step(4700, 9900, 5800), store: { count: 300, mean: 30, p50: 25.3, p90: 40, p99: 120, max: 500 }, heldBytes: 31_400_000 }],
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
  it('states the embedder and its decision, the embedding alone, and the lookup after and with it and the memory held per store size', () => {
    const text = renderSemanticCost(semantic, machine);
    expect(text.startsWith('Run 2026-11-21 10:00 UTC at commit `abc1234`')).toBe(true);
    expect(text).toContain('embedder `all-MiniLM-L6-v2` (384 dimensions, threshold 0.850)');
    expect(text).toContain('Embedding one question alone: p50 4100.0 µs, p99 9000.0 µs, 5200.0 µs CPU.');
    expect(text).toContain('| 10,000 | 300 | 0 | 480.0 | 900.0 | 510.0 | 4700.0 | 9900.0 | 5800.0 | 25.3 | 120.0 | 31.4 |');
    expect(renderSemanticCost({ ...semantic, verifierThreshold: 0.912, threshold: 0.9 }, machine)).toContain('(384 dimensions, candidates from cosine 0.900, verifier at 0.912)');
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
