import { createHash } from 'node:crypto';
import { SCALAR_FEATURE_NAMES } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { packFeatures, unpackFeatures } from './decision-features.js';

/** The 34 scalar features in `scalarFeatures`' order, values like a proxy-mode request's. */
const values = [0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0.125, 0, 0, 2, 9, 7, 9, 1, false, false, false, false, false, -0.5];
const features: Record<string, unknown> = Object.fromEntries(SCALAR_FEATURE_NAMES.map((name, at) => [name, values[at]]));

/** What jsonb gives back for an object: its keys shorter first, then by bytes. */
const asJsonb = (record: Record<string, unknown>) => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : 1)))));

describe('packed decision features', () => {
  it('packs by the names format f1 was stored with (a change to SCALAR_FEATURE_NAMES needs format f2, f1 kept for the rows stored)', () => {
    expect(createHash('sha256').update(SCALAR_FEATURE_NAMES.join(',')).digest('hex').slice(0, 16)).toBe('46d242b4bf37cb9c');
  });

  it('packs the scalar features into one string and unpacks them as the stored object read back (values and key order)', () => {
    const packed = packFeatures(features);
    expect(packed).toBe('f1:0,0,0,0,0,0,0,f,0,0,0,0,0,0,0,0,f,0,0,0,0.125,0,0,2,9,7,9,1,f,f,f,f,f,-0.5');
    expect(JSON.stringify(unpackFeatures(packed))).toBe(JSON.stringify(asJsonb(features)));
  });

  it('writes what JSON writes as null as null, and numbers as JSON writes them', () => {
    const odd = { ...features, code: Number.NaN, math: Number.POSITIVE_INFINITY, words: 1e21, total_chars: -0, turns: 0.1 + 0.2 };
    expect(unpackFeatures(packFeatures(odd))).toEqual(asJsonb(odd));
  });

  it('keeps any other record as it is: a key more, a key less, another order, a value not scalar', () => {
    const { audio: _, ...short } = features;
    const reordered = { math: 0, ...features };
    for (const record of [{ ...features, extra: 1 }, short, reordered, { ...features, code: '0' }, {}]) expect(packFeatures(record)).toBe(record);
  });

  it('gives back anything it did not pack unchanged', () => {
    for (const stored of [{ turns: 1 }, 'f1:1,2', 'plain text', null, 3]) expect(unpackFeatures(stored)).toBe(stored);
  });
});
