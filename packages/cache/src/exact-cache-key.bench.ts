import type { ChatRequest } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import { bench, describe } from 'vitest';
import { ExactCache } from './exact-cache.js';
import { exactCacheKey } from './exact-cache-key.js';
import { answerOf, baseRequest } from './test-requests.js';

// `pnpm --filter @svc/cache bench`: the cost of keying on the hot path of cache/full modes.

const sentence = 'The quick brown fox jumps over the lazy dog while the gateway routes the request. ';

/** About `bytes` of request JSON: a system prompt, a conversation, tools and sampling knobs. */
function requestOf(bytes: number): ChatRequest {
  const request = baseRequest();
  const base = JSON.stringify(request).length;
  const turns = Math.max(1, Math.round((bytes - base) / 400));
  const text = sentence.repeat(Math.max(1, Math.round((bytes - base) / turns / sentence.length)));
  for (let i = 0; i < turns; i++) request.messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${i}: ${text}` });
  return request;
}

/** A plain chat of about 1 KB: a system prompt and three turns, default sampling. */
const plain: ChatRequest = {
  model: 'svc/auto',
  messages: [
    { role: 'system', content: sentence.repeat(3) },
    { role: 'user', content: sentence.repeat(3) },
    { role: 'assistant', content: sentence.repeat(3) },
    { role: 'user', content: sentence.repeat(2) },
  ],
  stream: true,
  n: 1,
  includeUsage: true,
  temperature: 0,
};
// Every keyed field set (tools, schemas, hints, reasoning), padded with turns.
const rich = requestOf(1024);
const large = requestOf(20 * 1024);
console.log(`request JSON: ${[plain, rich, large].map((r) => JSON.stringify(r).length).join(' B, ')} B`);

describe('exactCacheKey', () => {
  bench('plain 1 KB chat', () => {
    exactCacheKey(plain, 'org_1');
  });
  bench('1 KB with every keyed field', () => {
    exactCacheKey(rich, 'org_1');
  });
  bench('20 KB with every keyed field', () => {
    exactCacheKey(large, 'org_1');
  });
});

describe('ExactCache.get, L0 hit', () => {
  const cache = new ExactCache({ kv: createMemoryKv() });
  const key = cache.key(plain, 'org_1')!;
  void cache.set(key, 'org_1', answerOf('cached', Date.now()));
  bench('key + get (1 KB request)', async () => {
    await cache.get(cache.key(plain, 'org_1')!);
  });
});
