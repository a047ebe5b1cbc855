import { type ChatRequest, SCALAR_FEATURE_NAMES } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { extractFeatures, type RequestFeatures } from './features.js';
import { scalarFeatures } from './scalar-features.js';

/** The record built key by key from the features object, as scalarFeatures once did: the reference it must equal, key order included. */
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
  it('gives the key-by-key record of every feature but the terms and max_tokens, in SCALAR_FEATURE_NAMES order', () => {
    const requests: ChatRequest[] = [
      chat('Say hello'),
      chat('Write a Python function that sorts a list and explain its complexity step by step.', { maxTokens: 300 }),
      chat(''),
      { ...chat('Prove that there are infinitely many primes.'), messages: [{ role: 'system', content: 'Be rigorous.' }, { role: 'user', content: 'Prove that there are infinitely many primes.' }] },
    ];
    for (const text of [true, false]) {
      for (const request of requests) {
        const f = extractFeatures(request, text);
        const built = scalarFeatures(f);
        expect(Object.keys(built)).toEqual(SCALAR_FEATURE_NAMES);
        expect(Object.keys(built)).toEqual(Object.keys(keyByKey(f)));
        expect(built).toEqual(keyByKey(f));
      }
    }
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
