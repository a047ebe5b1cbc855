import { describe, expect, it } from 'vitest';
import { resolveIntelligenceMode } from './intelligence-mode.js';

describe('resolveIntelligenceMode', () => {
  it('takes header > body > org default > full', () => {
    expect(resolveIntelligenceMode('proxy', 'cache', 'full')).toBe('proxy');
    expect(resolveIntelligenceMode(undefined, 'cache', 'proxy')).toBe('cache');
    expect(resolveIntelligenceMode(null, undefined, 'proxy')).toBe('proxy');
    expect(resolveIntelligenceMode(undefined, undefined, null)).toBe('full');
  });

  it('accepts any case in the header and rejects unknown values with a 400', () => {
    expect(resolveIntelligenceMode(' CACHE ', undefined, null)).toBe('cache');
    expect(() => resolveIntelligenceMode('turbo', undefined, null)).toThrow(expect.objectContaining({ status: 400, param: 'X-Intelligence-Mode' }));
  });
});
