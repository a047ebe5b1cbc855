
import { describe, expect, it } from 'vitest';
import { useMockedGateway } from './mocked-gateway.js';

const noCache = { headers: { 'cache-control': 'no-cache' } };
const noStore = { headers: { 'cache-control': 'no-store' } };

/** Issue 32, request controls: `Cache-Control: no-cache` skips the answer cache's lookup but stores; `no-store` does neither. */
describe('Cache-Control request header (mock upstream, exact and semantic caches on)', () => {
  const mocked = useMockedGateway({ SVC_CACHE_TTL_SECS: '3600' });
  const calls = () => mocked.upstream.stats().total;
  const unique = (label: string) => `${label} ${Date.now()} ${Math.random()}`;


  const ask = (content: string, options: { headers?: Record<string, string> } = {}) =>
    mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }] }, options).withResponse();

  it('chat completions: no-cache reaches the upstream despite a stored answer, and what it fetched is stored', async () => {
    const stored = unique('stored question');
    await ask(stored);
    const before = calls();
    expect((await ask(stored)).response.headers.get('x-svc-cache-hit')).toBe('true');
    expect(calls()).toBe(before);

    const fresh = await ask(stored, noCache);
    expect(fresh.response.headers.get('x-svc-cache-hit')).toBe('false');
    expect(calls()).toBe(before + 1);
    expect(mocked.upstream.stats().lastRequest!.body).toMatchObject({ messages: [{ role: 'user', content: stored }] });

    // A question only ever asked with no-cache is stored: the next plain request is a hit, no upstream call.
    const question = unique('no-cache question');
    await ask(question, noCache);
    const afterStore = calls();
    await expect.poll(async () => (await ask(question)).response.headers.get('x-svc-cache-hit')).toBe('true');
    expect(calls()).toBe(afterStore);
  });

  it('chat completions: no-store neither answers from the cache nor stores (exact and semantic)', async () => {
    const stored = unique('kept question');
    await ask(stored);
    const before = calls();
    expect((await ask(stored, noStore)).response.headers.get('x-svc-cache-hit')).toBe('false');
    expect(calls()).toBe(before + 1);

    const question = unique('private question');
    await ask(question, { headers: { 'cache-control': 'no-cache, no-store' } });
    const again = await ask(question);
    expect(again.response.headers.get('x-svc-cache-hit')).toBe('false');
    expect(calls()).toBe(before + 3);
  });

  it('chat completions streams: no-cache stores the streamed answer', async () => {
    const question = unique('streamed question');
    const stream = await mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] }, noCache);
    for await (const _ of stream) void _;
    const before = calls();
    await expect.poll(async () => (await ask(question)).response.headers.get('x-svc-cache-hit')).toBe('true');
    expect(calls()).toBe(before);
  });

  it('Messages: the same directives apply on /v1/messages', async () => {
    const message = (content: string, options: { headers?: Record<string, string> } = {}) =>
      mocked.anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content }] }, options).withResponse();
    const question = unique('messages question');
    await message(question);
    const before = calls();
    expect((await message(question)).response.headers.get('x-svc-cache-hit')).toBe('true');
    expect(calls()).toBe(before);
    expect((await message(question, noCache)).response.headers.get('x-svc-cache-hit')).toBe('false');
    expect(mocked.upstream.stats().lastRequest!.path).toBe('/v1/messages');
    expect((await message(question, noStore)).response.headers.get('x-svc-cache-hit')).toBe('false');
    expect(calls()).toBe(before + 2);

    const unstored = unique('messages private');
    await message(unstored, noStore);
    await message(unstored);
    expect(calls()).toBe(before + 4);
  });
});
