// Helpers of this package's tests (not exported).
import type { Kv } from '@svc/kv';
import type { Limits } from './limits.js';

export function fakeClock(iso: string): { now: () => number; advance: (ms: number) => void; set: (iso: string) => void } {
  let t = Date.parse(iso);
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (next) => {
      t = Date.parse(next);
    },
  };
}

export const noLimits: Limits = { rpm: null, tpm: null, monthlyBudgetUsd: null, tokenQuota: null };

export function limits(overrides: Partial<Limits>): Limits {
  return { ...noLimits, ...overrides };
}

/** `inner`, but every call rejects while `down()` is true; counts the calls that reached it. */
export function switchableKv(inner: Kv, down: () => boolean): Kv & { calls: number } {
  let calls = 0;
  const kv = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'calls') return calls;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        if (down()) return Promise.reject(new Error('Kv is down'));
        return Reflect.apply(value, target, args);
      };
    },
  });
  return kv as Kv & { calls: number };
}
