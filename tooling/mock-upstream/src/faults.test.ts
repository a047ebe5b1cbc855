import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { type ErrorBody, frames, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 8 });
});
afterAll(() => mock.close());

const chat = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
const messages = { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
const gemini = { contents: [{ parts: [{ text: 'x' }] }] };

describe('faults via x-mock-fault', () => {
  it('answers 429 in each provider shape with retry-after', async () => {
    const o = await post(`${mock.url}/v1/chat/completions`, chat, { 'x-mock-fault': '429' });
    expect(o.status).toBe(429);
    expect(o.headers.get('retry-after')).toBe('1');
    expect((await readJson<ErrorBody>(o)).error).toMatchObject({ code: 'rate_limit_exceeded', type: 'requests' });

    const a = await post(`${mock.url}/v1/messages`, messages, { 'x-mock-fault': '429', 'x-mock-retry-after': '0' });
    expect(a.headers.get('retry-after')).toBe('0');
    expect(await readJson<ErrorBody>(a)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });

    const g = await post(`${mock.url}/v1beta/models/g:generateContent`, gemini, { 'x-mock-fault': '429' });
    expect(await readJson<ErrorBody>(g)).toEqual({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.any(String) } });
  });

  it.each([
    ['500', 500, 'api_error'],
    ['503', 503, 'api_error'],
    ['529', 529, 'overloaded_error'],
  ])('answers %s with status %i (%s on Anthropic)', async (fault, status, anthropicType) => {
    const o = await post(`${mock.url}/v1/chat/completions`, chat, { 'x-mock-fault': fault });
    expect(o.status).toBe(status);
    expect((await readJson<ErrorBody>(o)).error.type).toBe('server_error');
    const a = await post(`${mock.url}/v1/messages`, messages, { 'x-mock-fault': fault });
    expect(a.status).toBe(status);
    expect((await readJson<ErrorBody>(a)).error.type).toBe(anthropicType);
  });

  it('answers context-length as each provider does', async () => {
    const o = await post(`${mock.url}/v1/chat/completions`, chat, { 'x-mock-fault': 'context-length' });
    expect(o.status).toBe(400);
    expect((await readJson<ErrorBody>(o)).error).toMatchObject({ code: 'context_length_exceeded', param: 'messages' });
    const a = await post(`${mock.url}/v1/messages`, messages, { 'x-mock-fault': 'context-length' });
    expect((await readJson<ErrorBody>(a)).error.message).toMatch(/prompt is too long/);
    const g = await post(`${mock.url}/v1beta/models/g:generateContent`, gemini, { 'x-mock-fault': 'context-length' });
    expect((await readJson<ErrorBody>(g)).error.status).toBe('INVALID_ARGUMENT');
  });

  it('holds a timeout request until the client gives up', async () => {
    const started = Date.now();
    await expect(
      fetch(`${mock.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify(chat),
        headers: { 'x-mock-fault': 'timeout' },
        signal: AbortSignal.timeout(150),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('drops a stream halfway: frames arrive, then the connection breaks without [DONE]', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { ...chat, stream: true }, { 'x-mock-fault': 'drop-mid-stream' });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += decoder.decode(value);
        }
      })(),
    ).rejects.toThrow();
    expect(text).toContain('"content":"Hello"');
    expect(text).not.toContain('[DONE]');
  });

  it('drops a JSON body halfway', async () => {
    const res = await post(`${mock.url}/v1/messages`, messages, { 'x-mock-fault': 'drop-mid-stream' });
    await expect(res.text()).rejects.toThrow();
  });

  it('fails only the first N requests per fail key', async () => {
    const headers = { 'x-mock-fail-first': '2', 'x-mock-fault': '503', 'x-mock-fail-key': 'retry-test' };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(`${mock.url}/v1/chat/completions`, chat, headers);
      await res.text();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([503, 503, 200, 200]);
  });

  it('rejects a malformed x-mock header with a 400 naming it', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, chat, { 'x-mock-fault': 'nope' });
    expect(res.status).toBe(400);
    expect((await readJson<ErrorBody>(res)).error.message).toMatch(/x-mock-fault/);
  });
});

describe('faults by credential (faultKeys)', () => {
  it('fails every request carrying a listed key and answers the others', async () => {
    const keyed = await startMockUpstream({ faultKeys: { 'groq-key': '503' } });
    try {
      const url = `${keyed.url}/v1/chat/completions`;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const failing = await post(url, chat, { authorization: 'Bearer groq-key' });
        expect((await readJson<ErrorBody>(failing)).error.type).toBe('server_error');
        const healthy = await post(url, chat, { authorization: 'Bearer together-key' });
        await healthy.text();
        statuses.push(failing.status, healthy.status);
      }
      expect(statuses).toEqual([503, 200, 503, 200, 503, 200]);
      const anthropic = await post(`${keyed.url}/v1/messages`, messages, { 'x-api-key': 'groq-key' });
      expect(anthropic.status).toBe(503);
      const none = await post(url, chat);
      expect(none.status).toBe(200);
      await none.text();
      expect(keyed.stats().faults).toBe(4);
      const override = await post(url, chat, { authorization: 'Bearer groq-key', 'x-mock-fault': '429' });
      expect(override.status).toBe(429);
    } finally {
      await keyed.close();
    }
  });

  it('is set and cleared through POST /__mock/configure', async () => {
    const url = `${mock.url}/v1/chat/completions`;
    const auth = { authorization: 'Bearer bad-key' };
    const set = await post(`${mock.url}/__mock/configure`, { faultKeys: { 'bad-key': '500', other: 'nope' } });
    expect(set.status).toBe(204);
    expect((await post(url, chat, auth)).status).toBe(500);
    expect((await post(url, chat, { authorization: 'Bearer other' })).status).toBe(200);
    await post(`${mock.url}/__mock/configure`, { faultKeys: null });
    expect((await post(url, chat, auth)).status).toBe(200);
  });
});

describe('configure() and timing', () => {
  it('applies a server-wide fault with a probability and counts faults', async () => {
    mock.configure({ fault: '500', faultProbability: 0.5 });
    mock.resetStats();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await post(`${mock.url}/v1/chat/completions`, chat);
      await res.text();
      statuses.push(res.status);
    }
    mock.configure({ fault: undefined, faultProbability: 1 });
    const failed = statuses.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
    expect(mock.stats().faults).toBe(failed);
  });

  it('waits latencyMs before the first byte', async () => {
    const started = performance.now();
    const res = await post(`${mock.url}/v1/chat/completions`, chat, { 'x-mock-latency-ms': '120' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(res.status).toBe(200);
  });

  it('paces stream tokens at tokensPerSecond', async () => {
    const started = performance.now();
    const res = await post(
      `${mock.url}/v1/messages`,
      { ...messages, stream: true },
      { 'x-mock-tokens-per-second': '100', 'x-mock-tokens': '10' },
    );
    const all = frames(await res.text());
    const elapsed = performance.now() - started;
    expect(all.filter((f) => f.event === 'content_block_delta')).toHaveLength(10);
    expect(elapsed).toBeGreaterThanOrEqual(85);
    expect(elapsed).toBeLessThan(1000);
  });

  it('closes promptly even with a held timeout request', async () => {
    const other = await startMockUpstream({ fault: 'timeout' });
    const pending = post(`${other.url}/v1/chat/completions`, chat).catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
