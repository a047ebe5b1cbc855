import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.js';

const master = 'sk-svc-upstream-secrets-master-key-XCRme3pycpBzzNe0MrE9tobu';
const keys = { OPENAI_API_KEY: 'sk-platform-openai-echoed-1234', ANTHROPIC_API_KEY: 'sk-ant-platform-echoed-5678', GEMINI_API_KEY: 'AIzaPlatformGeminiEchoed9' };

/** An upstream that answers every call 401 and quotes the credential it was sent, as some vendors and proxies do. */
let upstream: Server;
const env: Record<string, string> = { SVC_CACHE_TTL_SECS: '0' };
beforeAll(async () => {
  upstream = createServer((request, response) => {
    request.resume();
    const sent = request.headers.authorization ?? request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? '';
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${String(sent)}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  Object.assign(env, keys, { OPENAI_BASE_URL: `${base}/v1`, ANTHROPIC_BASE_URL: base, GEMINI_BASE_URL: base });
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

const t = useTestApp(master, env);

const models = ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash'];
const messages = [{ role: 'user', content: 'hi' }];

async function expectNoKey(response: Response): Promise<void> {
  const text = await response.text();
  for (const key of Object.values(keys)) expect(text).not.toContain(key);
  expect(text).toContain('[redacted]');
}

describe('a provider key echoed by the upstream never reaches the tenant', () => {
  it.each(models)('%s: JSON, stream and /v1/messages', async (model) => {
    const tenant = await t.keyWith(['inference:chat']);
    const json = await t.post('/v1/chat/completions', { model, messages }, tenant);
    expect(json.status).toBeGreaterThanOrEqual(400);
    await expectNoKey(json);
    await expectNoKey(await t.post('/v1/chat/completions', { model, messages, stream: true }, tenant));
    await expectNoKey(await t.post('/v1/messages', { model, max_tokens: 16, messages }, tenant));
    await expectNoKey(await t.post('/v1/messages', { model, max_tokens: 16, messages, stream: true }, tenant));
  });
});
