import { describe, expect, it } from 'vitest';
import { DEFAULT_BEHAVIOUR } from './behaviour.js';
import { planRequest } from './plan-request.js';

describe('planRequest', () => {
  it('uses the defaults without headers', () => {
    expect(planRequest(DEFAULT_BEHAVIOUR, {}, new Map())).toEqual({
      latencyMs: 0,
      tokensPerSecond: 0,
      tokens: 16,
      fault: undefined,
      retryAfterSeconds: 1,
    });
  });

  it('lets headers override latency, pacing and length', () => {
    const plan = planRequest(
      DEFAULT_BEHAVIOUR,
      { 'x-mock-latency-ms': '5', 'x-mock-tokens-per-second': '50', 'x-mock-tokens': '3' },
      new Map(),
    );
    expect(plan).toMatchObject({ latencyMs: 5, tokensPerSecond: 50, tokens: 3 });
  });

  it('names a malformed header', () => {
    expect(planRequest(DEFAULT_BEHAVIOUR, { 'x-mock-tokens': 'many' }, new Map())).toMatch(/x-mock-tokens/);
    expect(planRequest(DEFAULT_BEHAVIOUR, { 'x-mock-fault-probability': '2' }, new Map())).toMatch(
      /x-mock-fault-probability/,
    );
  });

  it('applies a probabilistic fault by drawing a random number', () => {
    const headers = { 'x-mock-fault': '503', 'x-mock-fault-probability': '0.3' };
    expect(planRequest(DEFAULT_BEHAVIOUR, headers, new Map(), () => 0.29)).toMatchObject({ fault: '503' });
    expect(planRequest(DEFAULT_BEHAVIOUR, headers, new Map(), () => 0.31)).toMatchObject({ fault: undefined });
  });

  it('counts server-wide failFirst across requests', () => {
    const counters = new Map<string, number>();
    const defaults = { ...DEFAULT_BEHAVIOUR, fault: '429' as const, failFirst: 1 };
    expect(planRequest(defaults, {}, counters)).toMatchObject({ fault: '429' });
    expect(planRequest(defaults, {}, counters)).toMatchObject({ fault: undefined });
  });

  it('defaults the fail-first fault to 500', () => {
    expect(planRequest(DEFAULT_BEHAVIOUR, { 'x-mock-fail-first': '1' }, new Map())).toMatchObject({ fault: '500' });
  });
});
