import { ProviderError, invalidRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { type RetryPolicy, retryDelay, sleep } from './retry.js';

const policy: RetryPolicy = { maxRetries: 2, baseMs: 100, capMs: 2000, random: () => 0.5, now: () => 10_000 };
const error = (kind: ProviderError['kind'], retryAfterMs?: number): ProviderError =>
  new ProviderError({ provider: 'openai', kind, message: kind, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

describe('retryDelay', () => {
  it('backs off exponentially with jitter for transient errors, up to maxRetries', () => {
    expect(retryDelay(error('server'), 0, policy)).toBe(50);
    expect(retryDelay(error('overloaded'), 1, policy)).toBe(100);
    expect(retryDelay(error('server'), 2, policy)).toBeUndefined();
    expect(retryDelay(error('timeout'), 1, { ...policy, maxRetries: 10, baseMs: 1000 })).toBe(1000);
    expect(retryDelay(error('network'), 8, { ...policy, maxRetries: 10 })).toBe(1000);
  });

  it('honours retry-after, and moves on when the upstream asks for longer than the cap', () => {
    expect(retryDelay(error('rate_limit', 1500), 0, policy)).toBe(1500);
    expect(retryDelay(error('rate_limit', 0), 0, policy)).toBe(0);
    expect(retryDelay(error('rate_limit', 60_000), 0, policy)).toBeUndefined();
  });

  it('never retries what another try cannot fix', () => {
    for (const kind of ['billing', 'authentication', 'context_length', 'not_found', 'invalid_request', 'content_filter'] as const) {
      expect(retryDelay(error(kind), 0, policy)).toBeUndefined();
    }
    expect(retryDelay(invalidRequest('bad'), 0, policy)).toBeUndefined();
    expect(retryDelay(new Error('boom'), 0, policy)).toBeUndefined();
  });

  it('stays within the request deadline', () => {
    expect(retryDelay(error('rate_limit', 1500), 0, { ...policy, deadline: 11_600 })).toBe(1500);
    expect(retryDelay(error('rate_limit', 1500), 0, { ...policy, deadline: 11_500 })).toBeUndefined();
    expect(retryDelay(error('rate_limit', 1500), 0, { ...policy, deadline: 12_000, minAttemptMs: 600 })).toBeUndefined();
    expect(retryDelay(error('server'), 0, { ...policy, deadline: 9_000 })).toBeUndefined();
  });
});

describe('sleep', () => {
  it('waits, and rejects with the reason when aborted', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    await expect(sleep(1, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
