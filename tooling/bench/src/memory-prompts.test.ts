import { extractFacts } from '@svc/memory';
import { describe, expect, it } from 'vitest';
import { memoryPrompt } from './memory-prompts.js';

describe('memoryPrompt', () => {
  it('alternates unique statements memory stores with questions it recalls for', () => {
    const prompts = Array.from({ length: 400 }, (_, i) => memoryPrompt(i));
    expect(new Set(prompts.map((p) => p.content)).size).toBe(400);
    expect(extractFacts(prompts[0]!.content).length).toBe(3);
    expect(extractFacts(prompts[1]!.content)).toEqual([]);
    expect(prompts[1]!.content).toContain('?');
  });
});
