import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { shadowSkipReason } from './eligibility.js';

const request: ChatRequest = { model: 'auto', messages: [{ role: 'user', content: 'Hi' }], stream: false, n: 1, includeUsage: false };
const facts = { request, requestId: 'req_1', mode: 'cache' as const };

describe('shadowSkipReason', () => {
  it('lets a plain stored request be shadowed', () => {
    expect(shadowSkipReason(facts)).toBeUndefined();
    expect(shadowSkipReason({ ...facts, mode: 'full' })).toBeUndefined();
    // A stream is judged on its text once delivered whole.
    expect(shadowSkipReason({ ...facts, request: { ...request, stream: true } })).toBeUndefined();
  });

  it.each([
    ['store_false', { ...facts, request: { ...request, store: false as const } }],
    ['no_store', { ...facts, cacheDirective: 'no-store' as const }],
    ['proxy_mode', { ...facts, mode: 'proxy' as const }],
    ['memory_off', { ...facts, request: { ...request, svc: { enableMemory: false } } }],
    ['shadow_request', { ...facts, requestId: 'req_1:shadow' }],
    ['not_text', { ...facts, request: { ...request, n: 2 } }],
  ])('skips %s', (reason, skipped) => {
    expect(shadowSkipReason(skipped)).toBe(reason);
  });
});
