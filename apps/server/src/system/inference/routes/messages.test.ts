import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../test-app.js';

const master = 'sk-svc-messages-route-test-master-7ilzKTxQMP2rVlSK4wKLlxa5';
const t = useTestApp(master);

const valid = { model: 'svc/auto', max_tokens: 128, messages: [{ role: 'user', content: 'hi' }] };
const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': master }) =>
  t.app.request('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

interface ErrorEnvelope {
  type: string;
  error: { type: string; code: string; param: string | null; message: string };
  request_id: string | null;
}

async function expectError(response: Response, status: number, type: string, code: string, param?: string | null) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-error-id')).toMatch(/^err_/);
  const body = (await response.json()) as ErrorEnvelope;
  expect(body.type).toBe('error');
  expect(body.error).toMatchObject({ type, code, ...(param !== undefined ? { param } : {}) });
  return body;
}

describe('POST /v1/messages', () => {
  it('answers with an Anthropic message, key as x-api-key or Bearer', async () => {
    const keyHeaders: Record<string, string>[] = [{ 'x-api-key': master }, { authorization: `Bearer ${master}` }];
    for (const headers of keyHeaders) {
      const response = await post(valid, headers);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn', stop_sequence: null, svc_metadata: { provider: 'mock' } });
      expect(body.id).toMatch(/^msg_/);
      expect(body.content).toEqual([expect.objectContaining({ type: 'text', text: expect.any(String) })]);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      expect(response.headers.get('x-svc-provider')).toBeTruthy();
    }
  });

  it('streams the Anthropic events in strict order', async () => {
    const response = await post({ ...valid, model: 'mock/mock-value', stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const names = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]).filter((name) => name !== 'ping');
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(names[1]).toBe('content_block_start');
    expect(names.at(-3)).toBe('content_block_stop');
    expect(names.slice(2, -3).every((name) => name === 'content_block_delta')).toBe(true);
  });

  it('keeps the client session header in metadata and forwards anthropic-beta', async () => {
    const spy = vi.spyOn(t.runtime.gateway, 'chat');
    await post(valid, { 'x-api-key': master, 'x-claude-code-session-id': 'sess-1', 'anthropic-beta': 'prompt-caching-2024-07-31' });
    const [request, context] = spy.mock.calls[0]!;
    spy.mockRestore();
    expect(request.metadata).toMatchObject({ session_id: 'sess-1' });
    expect(context.forwardHeaders).toEqual({ 'anthropic-beta': 'prompt-caching-2024-07-31' });
  });

  it('reports errors in the Anthropic envelope with the spec status codes', async () => {
    const unauthorized = await expectError(await post(valid, { 'x-api-key': 'sk-svc-nope' }), 401, 'authentication_error', 'invalid_api_key');
    expect(unauthorized.request_id).toMatch(/^req_/);
    await expectError(await post(valid, {}), 401, 'authentication_error', 'invalid_api_key');
    await expectError(await post({ ...valid, max_tokens: undefined }), 400, 'invalid_request_error', 'validation_error', 'max_tokens');
    await expectError(await post({ ...valid, temperature: 1.2 }), 400, 'invalid_request_error', 'validation_error', 'temperature');
    await expectError(await post({ ...valid, model: 'nobody/nothing' }), 404, 'not_found_error', 'model_not_found', 'model');
    const embedOnly = await t.keyWith(['inference:embeddings']);
    await expectError(await post(valid, { 'x-api-key': embedOnly }), 403, 'permission_error', 'insufficient_scopes');
  });
});

describe('POST /v1/messages/count_tokens', () => {
  const count = (body: unknown, headers: Record<string, string> = { 'x-api-key': master }) =>
    t.app.request('/v1/messages/count_tokens', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const ask = { model: 'svc/auto', messages: [{ role: 'user', content: 'Hello world' }] };

  it('answers {input_tokens} for the Messages body without max_tokens, more for a longer prompt, and calls no model', async () => {
    const spy = vi.spyOn(t.runtime.gateway, 'chat');
    const short = await count(ask);
    expect(short.status).toBe(200);
    expect(short.headers.get('request-id')).toMatch(/^req_/);
    const { input_tokens: few } = (await short.json()) as { input_tokens: number };
    expect(few).toBeGreaterThan(0);
    const long = await count({ ...ask, model: 'mock/mock-value', system: 'You answer in French, briefly and kindly.', tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }] });
    expect(((await long.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(few + 15);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('fails in the Anthropic envelope: bad key, bad body, unknown model, missing scope', async () => {
    await expectError(await count(ask, { 'x-api-key': 'sk-svc-nope' }), 401, 'authentication_error', 'invalid_api_key');
    await expectError(await count({ model: 'svc/auto' }), 400, 'invalid_request_error', 'validation_error', 'messages');
    await expectError(await count({ ...ask, model: 'nobody/nothing' }), 404, 'not_found_error', 'model_not_found', 'model');
    const embedOnly = await t.keyWith(['inference:embeddings']);
    await expectError(await count(ask, { 'x-api-key': embedOnly }), 403, 'permission_error', 'insufficient_scopes');
  });
});
