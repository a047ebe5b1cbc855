import { describe, expect, it } from 'vitest';
import { DEFAULT_BEHAVIOUR, behaviourFromJson, parseFaultKeys } from './behaviour.js';
import { planRequest, requestCredential } from './plan-request.js';

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

  it('gives a listed credential its fault every time, ignoring probability and failFirst', () => {
    const defaults = { ...DEFAULT_BEHAVIOUR, faultKeys: { 'groq-key': '503' as const }, faultProbability: 0, failFirst: 0 };
    const counters = new Map<string, number>();
    for (let i = 0; i < 3; i++) {
      expect(planRequest(defaults, { authorization: 'Bearer groq-key' }, counters, () => 0.99)).toMatchObject({ fault: '503' });
    }
    expect(planRequest(defaults, { authorization: 'Bearer together-key' }, counters)).toMatchObject({ fault: undefined });
    expect(planRequest(defaults, { authorization: 'Bearer constructor' }, counters)).toMatchObject({ fault: undefined });
    expect(planRequest(defaults, {}, counters)).toMatchObject({ fault: undefined });
  });

  it('lets x-mock-fault win over a keyed fault', () => {
    const defaults = { ...DEFAULT_BEHAVIOUR, faultKeys: { k: '503' as const } };
    expect(planRequest(defaults, { authorization: 'Bearer k', 'x-mock-fault': '429' }, new Map())).toMatchObject({ fault: '429' });
  });
});

describe('credentials and fault keys', () => {
  it('reads the key from Authorization, x-api-key or x-goog-api-key', () => {
    expect(requestCredential({ authorization: 'Bearer abc' })).toBe('abc');
    expect(requestCredential({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(requestCredential({ 'x-api-key': 'ant' })).toBe('ant');
    expect(requestCredential({ 'x-goog-api-key': 'goog' })).toBe('goog');
    expect(requestCredential({ authorization: 'Basic xyz' })).toBeUndefined();
  });

  it('parses --fault-key values with 503 as the default fault', () => {
    expect(parseFaultKeys(['groq-key', 'a=429', 'b=c=500'])).toEqual({ 'groq-key': '503', a: '429', 'b=c': '500' });
    expect(() => parseFaultKeys(['=503'])).toThrow(/needs a key/);
    expect(() => parseFaultKeys(['k=418'])).toThrow(/unknown fault/);
  });

  it('takes faultKeys from configure JSON, dropping unknown faults, null clears', () => {
    expect(behaviourFromJson({ faultKeys: { a: '503', b: 'teapot' } })).toEqual({ faultKeys: { a: '503' } });
    expect(behaviourFromJson({ faultKeys: null })).toEqual({ faultKeys: undefined });
    expect(behaviourFromJson({ faultKeys: ['a'] })).toEqual({});
  });
});
