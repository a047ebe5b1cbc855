import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.js';

describe('collectGarbage', () => {
  it('leaves gc reachable for another thread (encoder, store) collecting at the same time', () => {
    collectGarbage();
    // Another thread's call, made while this one had finished: it must still find gc.
    expect(runInNewContext('typeof gc')).toBe('function');
    expect(() => collectGarbage()).not.toThrow();
  });
});
