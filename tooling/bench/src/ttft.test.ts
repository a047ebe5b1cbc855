import { describe, expect, it } from 'vitest';
import { FirstContent, ttftAdded, ttftSummary } from './ttft.js';

const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`;

describe('first content token of an OpenAI stream', () => {
  it('skips the role chunk and finds the first chunk with content', () => {
    const scan = new FirstContent();
    expect(scan.push(chunk({ role: 'assistant', content: '' }))).toBe(false);
    expect(scan.push(chunk({ content: 'Hello' }))).toBe(true);
    expect(scan.push(': keep-alive\n')).toBe(true);
  });

  it('finds content split across chunks, and none in a usage chunk or [DONE]', () => {
    const scan = new FirstContent();
    const text = chunk({ content: 'Hi' });
    expect(scan.push(text.slice(0, 20))).toBe(false);
    expect(scan.push(text.slice(20))).toBe(true);
    const other = new FirstContent();
    expect(other.push(`data: ${JSON.stringify({ choices: [], usage: { total_tokens: 3 } })}\n\ndata: [DONE]\n\n`)).toBe(false);
  });

  it('finds it in a stream relayed all at once (a buffering proxy)', () => {
    const scan = new FirstContent();
    expect(scan.push(chunk({ role: 'assistant' }) + chunk({ content: 'a' }) + chunk({ content: 'b' }) + 'data: [DONE]\n\n')).toBe(true);
  });
});

describe('time-to-first-token figures', () => {
  it('takes the median and p90 by nearest rank', () => {
    const samples = Array.from({ length: 80 }, (_, i) => 80 - i); // 80..1 ms, any order
    expect(ttftSummary(samples)).toEqual({ count: 80, p50: 40, p90: 72, max: 80 });
    expect(ttftSummary([]).p50).toBeNaN();
  });

  it('is added to the mock\'s own time as the difference of medians and of p90s', () => {
    const direct = ttftSummary([1.2, 1.3, 1.1, 1.4]);
    const svc = ttftSummary([5.2, 5.4, 5.1, 6.4]);
    expect(ttftAdded(svc, direct)?.p50).toBeCloseTo(4.0);
    expect(ttftAdded(svc, direct)?.p90).toBeCloseTo(5.0);
    expect(ttftAdded(svc, undefined)).toBeUndefined();
    expect(ttftAdded(ttftSummary([]), direct)).toBeUndefined();
  });
});
