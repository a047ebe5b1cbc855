import { describe, expect, it } from 'vitest';
import { formatDuration } from './rate-limit-response.js';

describe('formatDuration', () => {
  it('writes reset times the way OpenAI does', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(20)).toBe('20ms');
    expect(formatDuration(999.2)).toBe('1s');
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(1200)).toBe('1.2s');
    expect(formatDuration(59_999)).toBe('59.999s');
    expect(formatDuration(60_000)).toBe('1m0s');
    expect(formatDuration(360_000)).toBe('6m0s');
    expect(formatDuration(3_723_500)).toBe('1h2m3.5s');
  });
});
