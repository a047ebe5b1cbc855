import { describe, expect, it } from 'vitest';
import { createTextMemo } from './text-memo.js';

describe('text memo', () => {
  it('computes each distinct text once, concurrent and later calls alike', async () => {
    const computed: string[] = [];
    const memo = createTextMemo(10, async (text) => {
      computed.push(text);
      return Float32Array.of(text.length);
    });
    const [a, b] = await Promise.all([memo.get('hello'), memo.get('hello')]);
    await memo.get('hello');
    expect(a).toBe(b);
    expect(computed).toEqual(['hello']);
  });

  it('forgets the least recently used text past its size, and never a failure', async () => {
    const computed: string[] = [];
    let fail = true;
    const memo = createTextMemo(2, async (text) => {
      computed.push(text);
      if (text === 'flaky' && fail) throw new Error('model down');
      return new Float32Array(1);
    });
    await expect(memo.get('flaky')).rejects.toThrow('model down');
    fail = false;
    await memo.get('flaky');
    await memo.get('b');
    await memo.get('c');
    await memo.get('flaky');
    expect(computed).toEqual(['flaky', 'flaky', 'b', 'c', 'flaky']);
  });
});
