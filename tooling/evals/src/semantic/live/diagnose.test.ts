import { describe, expect, it } from 'vitest';
import type { Answered } from './client.js';
import { differences } from './diagnose.js';

const miss = (question: string, requestId: string): Answered => ({ question, requestId, cacheType: undefined, similarity: undefined, cachedRequestId: undefined });
const hit = (question: string, requestId: string, source: string, similarity: number): Answered => ({ question, requestId, cacheType: 'semantic', similarity, cachedRequestId: source });

describe('differences between an in-process run and a live run', () => {
  it('names the questions answered otherwise (hit or miss, or another source), by the source question and not its request id', () => {
    const offline = { a: [miss('a0', 'o0'), miss('a1', 'o1')], b: [hit('b0', 'o2', 'o0', 0.95), hit('b1', 'o3', 'o1', 0.93)] };
    const live = { a: [miss('a0', 'L0'), miss('a1', 'L1')], b: [hit('b0', 'L2', 'L0', 0.95), miss('b1', 'L3')] };
    const lines = differences(offline, live);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('b of pair 1: "b1"; in process "a1" (cosine 0.9300), live "miss"');
  });
});
