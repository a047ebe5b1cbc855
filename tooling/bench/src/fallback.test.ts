import { describe, expect, it } from 'vitest';
import { breakerReading, type FallbackResult, fallbackFigures, fallbackPair } from './fallback.js';
import { fakeMeasurement } from './fixtures.js';
import { renderFallback } from './render.js';

const models = [
  { id: 'groq/qwen/qwen3-32b', provider: 'groq', family: 'qwen3-32b', kind: 'chat' },
  { id: 'groq/llama-3.3-70b-versatile', provider: 'groq', family: 'llama-3.3-70b', kind: 'chat' },
  { id: 'cerebras/llama-3.3-70b', provider: 'cerebras', family: 'llama-3.3-70b', kind: 'chat' },
  { id: 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo', provider: 'together', family: 'llama-3.3-70b', kind: 'chat' },
];

describe('fallbackPair', () => {
  it('picks the first groq chat model whose family has a together member', () => {
    expect(fallbackPair(models)).toEqual({
      failingModel: 'groq/llama-3.3-70b-versatile',
      healthyModel: 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo',
    });
  });
  it('is undefined when no family is shared', () => {
    expect(fallbackPair(models.slice(0, 3))).toBeUndefined();
  });
});

function result(faults: number, calls: number): FallbackResult {
  const normal = { ...fakeMeasurement('svc', 1, { rps: 1000, p50: 0.6, p99: 3, cpuUs: 500, rssMb: 400 }), upstreamRequests: 10_000, upstreamFaults: 0 };
  const fallback = { ...fakeMeasurement('svc', 1, { rps: 800, p50: 0.9, p99: 4.5, cpuUs: 640, rssMb: 400 }), upstreamRequests: calls, upstreamFaults: faults };
  return { variant: 'default settings', connections: 1, stream: false, normal, fallback };
}

describe('fallbackFigures', () => {
  it('subtracts normal from fallback and counts upstream calls per response', () => {
    const f = fallbackFigures(result(8000, 16_000));
    expect(f.addedP50Ms).toBeCloseTo(0.3);
    expect(f.addedP99Ms).toBeCloseTo(1.5);
    expect(f.addedCpuUs).toBeCloseTo(140);
    expect(f.failedAttemptsPerRequest).toBe(1);
    expect(f.upstreamCallsPerRequest).toEqual({ normal: 1, fallback: 2 });
  });
  it('reads the breaker from failed attempts per request', () => {
    expect(breakerReading(1)).toMatch(/^closed/);
    expect(breakerReading(0.001)).toMatch(/^open/);
    expect(breakerReading(0.5)).toBe('partly open');
    expect(breakerReading(undefined)).toBe('unknown');
  });
});

describe('renderFallback', () => {
  it('renders normal, fallback and added rows with the breaker reading', () => {
    const md = renderFallback({
      pair: { failingModel: 'groq/x', healthyModel: 'together/x' },
      failingProvider: 'groq',
      healthyProvider: 'together',
      fault: '503',
      results: [result(2, 8002)],
      skipped: ['second: svc exited'],
    });
    expect(md).toContain('pin `groq/x`');
    expect(md).toContain('| JSON, 1 conn | default settings | normal | 1000 | 0.60 | 3.00 | 500 | 1.00 | 0.00 |  | 0 |');
    expect(md).toContain('| failed attempt + fallback | 800 | 0.90 | 4.50 | 640 | 1.00 | 0.00 | open: the failing provider was skipped, not called | 0 |');
    expect(md).toContain('| **added** | | **+0.30** | **+1.50** | **+140** | | | | |');
    expect(md).toContain('- **fallback not measured:** second: svc exited');
  });
});
