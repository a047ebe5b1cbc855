import { describe, expect, it } from 'vitest';
import { semanticCapacity } from './semantic-capacity.js';
import { semanticSizes } from './semantic-cost.js';

describe('semantic capacity', () => {
  it('is the gateway’s own default unless SVC_SEMANTIC_MAX_ENTRIES says otherwise', () => {
    expect(semanticCapacity(undefined)).toBe(10_000);
    expect(semanticCapacity('4000')).toBe(4_000);
    expect(() => semanticCapacity('lots')).toThrow(/SVC_SEMANTIC_MAX_ENTRIES/);
    expect(semanticSizes(1_000)).toEqual([1_000, 10_000]);
    expect(semanticSizes(10_000)).toEqual([10_000]);
  });
});
