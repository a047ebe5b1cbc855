import { describe, expect, it } from 'vitest';
import { estimatePromptTokens, estimateUsage } from './estimate-usage.js';

describe('usage estimates for streams the provider left uncounted', () => {
  it('counts with the o200k tokenizer and marks the figure estimated', async () => {
    const usage = await estimateUsage([{ role: 'user', content: 'Hello world' }], 'Hello world');
    // "Hello world" is 2 tokens in o200k; each message adds 4 for its role and framing.
    expect(usage).toEqual({ promptTokens: 6, completionTokens: 2, totalTokens: 8, estimated: true });
  });

  it('counts text parts and ignores images', async () => {
    const usage = await estimateUsage([{ role: 'user', content: [{ type: 'text', text: 'Hello world' }, { type: 'image', url: 'https://x/y.png' }] }], '');
    expect(usage.promptTokens).toBe(6);
    expect(usage.completionTokens).toBe(0);
  });

  it('keeps a cheap synchronous heuristic for admission-time estimates', () => {
    expect(estimatePromptTokens([{ role: 'user', content: 'x'.repeat(400) }])).toBe(104);
  });
});
