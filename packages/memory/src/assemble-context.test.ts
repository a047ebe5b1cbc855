import { describe, expect, it } from 'vitest';
import { approximateTokens, assembleContext } from './assemble-context.js';

describe('assembleContext', () => {
  const memories = [
    { role: 'user', text: 'My favourite colour is teal.' },
    { role: 'assistant', text: 'x'.repeat(400) },
    { role: 'user', text: 'I live in Lisbon.' },
  ];

  it('keeps the best memories that fit the budget, skipping one too long', () => {
    const text = assembleContext(memories, 60);
    expect(text).toContain('- My favourite colour is teal.');
    expect(text).toContain('- I live in Lisbon.');
    expect(text).not.toContain('xxxx');
    expect(approximateTokens(text)).toBeLessThanOrEqual(60);
  });

  it('includes everything under a large budget, in the given order', () => {
    const lines = assembleContext(memories, 10_000).split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('teal');
  });

  it('is empty when nothing fits or nothing is given', () => {
    expect(assembleContext(memories, 5)).toBe('');
    expect(assembleContext([], 1000)).toBe('');
  });

  it('counts with the given tokenizer', () => {
    const words = (text: string) => text.split(/\s+/).length;
    expect(assembleContext(memories, 25, words)).toContain('teal');
  });
});
