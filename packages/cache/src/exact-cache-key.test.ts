import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { type ExactCacheKeyOptions, type UncacheableReason, exactCacheKey, orgOfExactKey, uncacheableReason } from './exact-cache-key.js';
import { answerChanges, baseRequest, reverseKeys, sameAnswer } from './test-requests.js';

const ORG = 'org_1';

function minimal(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'svc/auto', messages: [{ role: 'user', content: 'Hi' }], stream: false, n: 1, includeUsage: false, ...extra };
}

function edited(edit: (request: ChatRequest) => void): ChatRequest {
  const request = baseRequest();
  edit(request);
  return request;
}

describe('exactCacheKey', () => {
  it('is the organisation and a base64url sha256', () => {
    const key = exactCacheKey(minimal(), ORG);
    expect(key).toMatch(/^org_1:[A-Za-z0-9_-]{43}$/);
    expect(orgOfExactKey(key!)).toBe(ORG);
  });

  it('is the same for the same request, whatever the JSON key order at any depth', () => {
    const key = exactCacheKey(baseRequest(), ORG);
    expect(key).toBeDefined();
    expect(exactCacheKey(baseRequest(), ORG)).toBe(key);
    expect(exactCacheKey(reverseKeys(baseRequest()), ORG)).toBe(key);
  });

  it('never shares an entry across organisations', () => {
    expect(exactCacheKey(minimal(), 'org_a')).not.toBe(exactCacheKey(minimal(), 'org_b'));
    // The org is hashed too: a key cannot be moved to another org by rewriting its prefix.
    const [, digest] = exactCacheKey(minimal(), 'org_a')!.split(':');
    expect(exactCacheKey(minimal(), 'org_b')).not.toBe(`org_b:${digest}`);
  });

  it.each(answerChanges)('changes with %s', (_name, edit) => {
    const key = exactCacheKey(edited(edit), ORG);
    expect(key).toBeDefined();
    expect(key).not.toBe(exactCacheKey(baseRequest(), ORG));
  });

  it.each(sameAnswer)('does not change with %s', (_name, edit) => {
    expect(exactCacheKey(edited(edit), ORG)).toBe(exactCacheKey(baseRequest(), ORG));
  });

  it('treats empty blocks and an empty stop list as absent', () => {
    const key = exactCacheKey(minimal(), ORG);
    expect(exactCacheKey(minimal({ routingHints: {}, routingOverride: {}, reasoning: {}, stop: [] }), ORG)).toBe(key);
    expect(exactCacheKey(minimal({ svc: { conversationId: 'c', chainId: 'x' } }), ORG)).toBe(key);
    expect(exactCacheKey(minimal({ svc: { workflowType: 'creative' } }), ORG)).not.toBe(key);
  });

  it('keys two text parts apart from their concatenation', () => {
    const joined = minimal({ messages: [{ role: 'user', content: 'ab' }] });
    const split = minimal({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] });
    expect(exactCacheKey(split, ORG)).not.toBe(exactCacheKey(joined, ORG));
  });

  it('keeps tool-call arguments as the text they are', () => {
    const call = (args: string): ChatRequest =>
      minimal({ messages: [{ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'f', arguments: args }] }] });
    expect(exactCacheKey(call('{"a":1,"b":2}'), ORG)).not.toBe(exactCacheKey(call('{"b":2,"a":1}'), ORG));
  });
});

describe('caching policy', () => {
  const cases: [string, Partial<ChatRequest>, ExactCacheKeyOptions, UncacheableReason | undefined][] = [
    ['no temperature', {}, {}, undefined],
    ['temperature 0', { temperature: 0 }, {}, undefined],
    ['temperature > 0 with a seed', { temperature: 0.8, seed: 1 }, {}, undefined],
    ['temperature > 0 without a seed', { temperature: 0.8 }, {}, 'non_deterministic'],
    ['temperature > 0 without a seed, org opted in', { temperature: 0.8 }, { allowNonDeterministic: true }, undefined],
    ['n > 1 at temperature 0', { n: 3, temperature: 0 }, {}, undefined],
    ['n > 1 with a seed', { n: 3, temperature: 1, seed: 4 }, {}, undefined],
    ['n > 1 without temperature', { n: 3 }, {}, 'multiple_choices'],
    ['n > 1 sampled, even when the org opted in', { n: 3, temperature: 0.8 }, { allowNonDeterministic: true }, 'multiple_choices'],
    ['logprobs', { logprobs: true, temperature: 0 }, {}, 'logprobs'],
    ['top_logprobs', { topLogprobs: 5, temperature: 0 }, {}, 'logprobs'],
    ['logprobs false', { logprobs: false }, {}, undefined],
    ['a forced tool call', { tools: [{ name: 'f' }], toolChoice: 'required' }, {}, undefined],
  ];

  it.each(cases)('%s', (_name, extra, options, reason) => {
    expect(uncacheableReason(minimal(extra), options)).toBe(reason);
    expect(exactCacheKey(minimal(extra), ORG, options) === undefined).toBe(reason !== undefined);
  });
});

describe('orgOfExactKey', () => {
  it('reads org ids that contain the separator', () => {
    expect(orgOfExactKey(exactCacheKey(minimal(), 'tenant:eu:7')!)).toBe('tenant:eu:7');
  });

  it('rejects strings that are not keys', () => {
    expect(orgOfExactKey('')).toBeUndefined();
    expect(orgOfExactKey('org_1')).toBeUndefined();
    expect(orgOfExactKey(`org_1-${'a'.repeat(43)}`)).toBeUndefined();
  });
});
