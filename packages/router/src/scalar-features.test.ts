import { type ChatRequest, SCALAR_FEATURE_NAMES } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { extractFeatures, type RequestFeatures } from './features.js';
import { scalarFeatures } from './scalar-features.js';

/** The record built key by key, as scalarFeatures always did: the reference its copies must equal, key order included. */
function keyByKey(features: RequestFeatures): Record<string, number | boolean> {
  const wire: Record<string, number | boolean> = {};
  for (const name in features) {
    if (name === 'maxTokens') continue;
    const value = features[name as keyof RequestFeatures];
    const key = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (typeof value === 'number') wire[key] = Math.round(value * 1000) / 1000;
    else if (typeof value === 'boolean') wire[key] = value;
  }
  return wire;
}

const chat = (content: string, extra: { maxTokens?: number } = {}): ChatRequest => ({ model: 'm', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false, ...extra });

describe('scalarFeatures', () => {
  it('gives the key-by-key record, in its key order, whatever came before it', () => {
    const requests: ChatRequest[] = [
      chat('Say hello'),
      chat('Write a Python function that sorts a list and explain its complexity step by step.', { maxTokens: 300 }),
      chat(''),
      { ...chat('Prove that there are infinitely many primes.'), messages: [{ role: 'system', content: 'Be rigorous.' }, { role: 'user', content: 'Prove that there are infinitely many primes.' }] },
    ];
    const features: RequestFeatures[] = [...requests.map((r) => extractFeatures(r, true)), ...requests.map((r) => extractFeatures(r, false))];
    // A features object with other keys (an extra one, one missing, one not scalar) between ones of the usual shape.
    const [first] = features as [RequestFeatures];
    const { turns: _turns, ...missing } = first;
    const others = [{ ...first, extraSignal: 0.12345 }, missing, { ...first, hasSystem: 'yes' }] as unknown as RequestFeatures[];
    for (const f of [...features, ...others, ...features, ...others.reverse(), ...features]) {
      const built = scalarFeatures(f);
      expect(Object.keys(built)).toEqual(Object.keys(keyByKey(f)));
      expect(built).toEqual(keyByKey(f));
    }
  });

  it('gives the keys of SCALAR_FEATURE_NAMES, in its order, for every mode', () => {
    for (const text of [true, false]) expect(Object.keys(scalarFeatures(extractFeatures(chat('Say hello'), text)))).toEqual(SCALAR_FEATURE_NAMES);
  });

  it('gives every call a record of its own', () => {
    const f = extractFeatures(chat('Say hello'), true);
    const a = scalarFeatures(f);
    const b = scalarFeatures(f);
    expect(a).not.toBe(b);
    a.turns = 99;
    expect(b.turns).toBe(1);
    expect(scalarFeatures(f).turns).toBe(1);
  });
});
