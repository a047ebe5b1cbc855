import { describe, expect, it } from 'vitest';
import { loadTokenizer } from './tokenizer.js';

describe('loadTokenizer', () => {
  it("gives the model's word-piece ids between [CLS] and [SEP], cut to the budget", async () => {
    const tokenizer = await loadTokenizer(6);
    expect(tokenizer.encode('Is Elvis overrated?')).toEqual([101, 2003, 12280, 2058, 9250, 102]);
    expect(tokenizer.encode('Was Elvis Presley overrated, or was he not?')).toHaveLength(6);
  });
});
