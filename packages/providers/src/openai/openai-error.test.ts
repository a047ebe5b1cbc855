import { ProviderError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { startFixtureServer } from '../test/fixture-server.js';
import { useFixtureServer } from '../test/use-fixture-server.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { createOpenAIProvider } from './openai-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const request: ProviderChatRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: false, n: 1, includeUsage: false };

const startServer = useFixtureServer();

async function failWith(status: number, body: unknown, headers: Record<string, string> = {}): Promise<ProviderError> {
  const server = await startServer(() => ({ status, headers, json: body }));
  const provider = createOpenAIProvider({ apiKeys: ['sk-test'], baseUrl: `${server.url}/v1` });
  const error = await provider.chat(request).catch((caught: unknown) => caught);
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('openai errors', () => {
  it('429 rate_limit_exceeded -> rate_limit with retryAfterMs', async () => {
    const error = await failWith(429, json('error-rate-limit'), { 'retry-after': '2' });
    expect(error).toMatchObject({ provider: 'openai', kind: 'rate_limit', upstreamStatus: 429, upstreamCode: 'rate_limit_exceeded', retryAfterMs: 2000, retryable: true });
    expect(error.message).toContain('Rate limit reached');
  });

  it('retry-after-ms wins over retry-after', async () => {
    const error = await failWith(429, json('error-rate-limit'), { 'retry-after-ms': '120', 'retry-after': '1' });
    expect(error.retryAfterMs).toBe(120);
  });

  it('429 insufficient_quota -> billing, not rate_limit', async () => {
    const error = await failWith(429, json('error-insufficient-quota'));
    expect(error).toMatchObject({ kind: 'billing', upstreamCode: 'insufficient_quota', retryable: true });
  });

  it('400 context_length_exceeded -> context_length', async () => {
    const error = await failWith(400, json('error-context-length'));
    expect(error).toMatchObject({ kind: 'context_length', upstreamStatus: 400, param: 'messages', code: 'context_length_exceeded' });
  });

  it('a codeless 400 that talks about the context window -> context_length (vLLM-style)', async () => {
    const error = await failWith(400, { object: 'error', message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", type: 'BadRequestError', code: 400 });
    expect(error.kind).toBe('context_length');
  });

  it('400 bad request -> invalid_request, not retryable', async () => {
    const error = await failWith(400, json('error-bad-request'));
    expect(error).toMatchObject({ kind: 'invalid_request', retryable: false, param: 'temperature', upstreamCode: 'invalid_value', status: 400 });
  });

  it('401 -> authentication; 404 model_not_found -> not_found', async () => {
    expect((await failWith(401, { error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', code: 'invalid_api_key' } })).kind).toBe('authentication');
    expect((await failWith(404, { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } })).kind).toBe('not_found');
  });

  it('500 -> server, retryable; 503 -> overloaded', async () => {
    expect(await failWith(500, json('error-server'))).toMatchObject({ kind: 'server', retryable: true, upstreamStatus: 500 });
    expect((await failWith(503, { error: { message: 'Service Unavailable', type: 'service_unavailable' } })).kind).toBe('overloaded');
  });

  it('an error inside a 200 body is thrown, not mapped to an empty answer', async () => {
    const error = await failWith(200, { error: { message: 'Provider returned error', code: 502 } });
    expect(error.kind).toBe('server');
  });

  it('connection refused -> network', async () => {
    const closed = await startFixtureServer(() => ({ json: {} }));
    await closed.close();
    const provider = createOpenAIProvider({ apiKeys: ['sk-test'], baseUrl: `${closed.url}/v1` });
    await expect(provider.chat(request)).rejects.toMatchObject({ name: 'ProviderError', kind: 'network', retryable: true });
    await expect(provider.stream({ ...request, stream: true })).rejects.toMatchObject({ kind: 'network' });
  });

  it('an already aborted signal rejects without calling out', async () => {
    const server = await startServer(() => ({ json: json('text') }));
    const provider = createOpenAIProvider({ apiKeys: ['sk-test'], baseUrl: `${server.url}/v1` });
    await expect(provider.chat(request, { signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'timeout' });
    expect(server.requests).toHaveLength(0);
  });

  it('maps finish reasons', () => {
    expect(mapOpenAIFinishReason('stop')).toBe('stop');
    expect(mapOpenAIFinishReason('length')).toBe('length');
    expect(mapOpenAIFinishReason('model_length')).toBe('length');
    expect(mapOpenAIFinishReason('tool_calls')).toBe('tool_calls');
    expect(mapOpenAIFinishReason('function_call')).toBe('tool_calls');
    expect(mapOpenAIFinishReason('content_filter')).toBe('content_filter');
    expect(mapOpenAIFinishReason(null)).toBe('stop');
    expect(mapOpenAIFinishReason('eos')).toBe('stop');
  });
});
