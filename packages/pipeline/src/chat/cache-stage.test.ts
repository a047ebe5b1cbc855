import { describe, expect, it } from 'vitest';
import { cacheDirectiveOf } from './cache-stage.js';

describe('cacheDirectiveOf', () => {
  it('reads no-cache and no-store, no-store winning, case and spacing aside', () => {
    expect(cacheDirectiveOf('no-cache')).toBe('no-cache');
    expect(cacheDirectiveOf(' No-Cache , max-age=0')).toBe('no-cache');
    expect(cacheDirectiveOf('no-cache, no-store')).toBe('no-store');
    expect(cacheDirectiveOf('NO-STORE')).toBe('no-store');
  });

  it('ignores other directives and an absent header', () => {
    expect(cacheDirectiveOf(undefined)).toBeUndefined();
    expect(cacheDirectiveOf('')).toBeUndefined();
    expect(cacheDirectiveOf('max-age=60, private')).toBeUndefined();
    expect(cacheDirectiveOf('no-cachey')).toBeUndefined();
  });
});
