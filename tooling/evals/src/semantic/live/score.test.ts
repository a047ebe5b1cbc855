import { describe, expect, it } from 'vitest';
import type { QqpPair } from '../dataset.js';
import type { Answered } from './client.js';
import { liveSet } from './pairs.js';
import { scoreRun } from './score.js';

const answered = (question: string, requestId: string, cacheType?: string, cachedRequestId?: string): Answered => ({ question, requestId, cacheType, similarity: undefined, cachedRequestId });

describe('scoreRun', () => {
  it('judges each b by the question that answered it: strict its own a on a duplicate pair, lenient also the same text or a labelled duplicate', () => {
    const qqp: QqpPair[] = [
      { a: 'How do I learn Go?', b: 'How can I learn Go?', duplicate: true },
      { a: 'Is tea healthy?', b: 'Is green tea healthy?', duplicate: false },
      { a: 'Why is the sky blue?', b: 'What makes the sky blue?', duplicate: true },
      { a: 'What makes the sky blue?', b: 'Why is the sea blue?', duplicate: false },
    ];
    const set = { ...liveSet(qqp, 4), pairs: qqp };
    const run = {
      a: qqp.map((p, i) => answered(p.a, `a${i}`)),
      b: [
        answered(qqp[0]!.b, 'b0', 'semantic', 'a0'), // own a, duplicate: strict and lenient
        answered(qqp[1]!.b, 'b1', 'semantic', 'a1'), // own a, labelled different: wrong
        answered(qqp[2]!.b, 'b2', 'semantic', 'a3'), // the same text asked as another pair's a: lenient only
        answered(qqp[3]!.b, 'b3'), // miss
      ],
    };
    expect(scoreRun(set, qqp, run)).toEqual({ duplicates: 2, semanticHits: 3, exactHits: 0, strictRight: 1, lenientRight: 2, byOwnA: 2, unknownSource: 0, aHits: 0 });
  });
});
