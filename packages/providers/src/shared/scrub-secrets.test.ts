import { type ProviderError, isProviderError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import type { Provider, ProviderChatRequest } from '../provider.js';
import { type ProviderRegistryConfig, createProviderRegistry } from '../registry.js';
import { SecretSet, scrubError } from './scrub-secrets.js';

const secrets = {
  openai: 'sk-platform-openai-0123456789',
  openaiPool: 'sk-pool-second-key-abcdef',
  anthropic: 'sk-ant-platform-key-xyz123',
  gemini: 'AIzaPlatformGeminiKey0000',
  groq: 'gsk_compatible_vendor_key_1',
  bedrockSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  bedrockSession: 'FwoGZXIvYXdzEXAMPLESESSIONTOKEN',
  byok: 'sk-byok-pinned-by-the-call-99',
};
const every = Object.values(secrets);
const platform = every.filter((secret) => secret !== secrets.byok);

/**
 * An upstream (or a proxy in front of it) that echoes the credential headers it was sent and
 * every platform secret in its 401: the worst case, since OpenAI itself masks the key but other
 * vendors and proxies may not.
 */
const echoingFetch: typeof globalThis.fetch = async (_input, init) => {
  const headers = new Headers(init?.headers);
  const sent = ['authorization', 'x-api-key', 'x-goog-api-key'].map((name) => headers.get(name) ?? '');
  return new Response(
    JSON.stringify({ error: { message: `Incorrect API key provided: ${[...sent, ...platform].join(' ')}`, type: 'invalid_request_error', code: 'invalid_api_key' } }),
    { status: 401, headers: { 'content-type': 'application/json' } },
  );
};

/** A 200 stream whose first event is an error naming the key (OpenAI wire). */
const midStreamFetch: typeof globalThis.fetch = async () =>
  new Response(`data: ${JSON.stringify({ error: { message: `key ${secrets.openai} was revoked`, type: 'server_error' } })}\n\n`, {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
  });

const config = (fetch: typeof globalThis.fetch): ProviderRegistryConfig => ({
  fetch,
  openai: { apiKeys: [secrets.openai, secrets.openaiPool], baseUrl: 'http://upstream.test/v1' },
  anthropic: { apiKeys: [secrets.anthropic], baseUrl: 'http://upstream.test' },
  gemini: { apiKeys: [secrets.gemini], baseUrl: 'http://upstream.test' },
  bedrock: {
    region: 'us-east-1',
    baseUrl: 'http://upstream.test',
    credentials: [{ accessKeyId: 'AKIAEXAMPLEACCESS', secretAccessKey: secrets.bedrockSecret, sessionToken: secrets.bedrockSession }],
  },
  compatible: [{ id: 'groq', apiKeys: [secrets.groq], baseUrl: 'http://upstream.test/v1' }],
});

const families: [string, string][] = [
  ['openai', 'gpt-4o-mini'],
  ['groq', 'llama-3.3-70b-versatile'],
  ['anthropic', 'claude-3-5-haiku-20241022'],
  ['gemini', 'gemini-2.0-flash'],
  ['bedrock', 'anthropic.claude-3-5-haiku-20241022-v1:0'],
];

const request = (model: string, stream: boolean): ProviderChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'Hi' }],
  stream,
  n: 1,
  includeUsage: false,
});

async function failure(run: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await run();
  } catch (error) {
    expect(isProviderError(error)).toBe(true);
    return error as ProviderError;
  }
  throw new Error('expected the call to fail');
}

async function drain(provider: Provider, model: string, apiKey?: string): Promise<void> {
  for await (const _ of await provider.stream(request(model, true), apiKey ? { apiKey } : {})) {
    // reading until the error
  }
}

function expectClean(error: ProviderError): void {
  const visible = [error.message, error.stack ?? '', error.param ?? '', error.upstreamCode ?? '', String((error.cause as Error | undefined)?.message ?? '')].join('\n');
  for (const secret of every) expect(visible).not.toContain(secret);
  expect(error.message).toContain('[redacted]');
}

describe('secret scrubbing of upstream errors', () => {
  it.each(families)('%s: neither a JSON call nor a stream lets a configured key through', async (id, model) => {
    const provider = createProviderRegistry(config(echoingFetch)).get(id)!;
    const json = await failure(() => provider.chat(request(model, false)));
    expectClean(json);
    expectClean(await failure(() => drain(provider, model)));
  });

  it.each(families)('%s: a key pinned by the call (BYOK) is scrubbed too', async (id, model) => {
    const provider = createProviderRegistry(config(echoingFetch)).get(id)!;
    const key = id === 'bedrock' ? `AKIABYOKACCESS:${secrets.byok}` : secrets.byok;
    expectClean(await failure(() => provider.chat(request(model, false), { apiKey: key })));
  });

  it('scrubs an error event in the middle of a 200 stream', async () => {
    const provider = createProviderRegistry(config(midStreamFetch)).get('openai')!;
    const error = await failure(() => drain(provider, 'gpt-4o-mini'));
    expect(error.message).toBe('key [redacted] was revoked');
  });

  it('scrubs a minted Vertex token', async () => {
    const token = 'ya29.minted-token-abcdefghijkl';
    const provider = createProviderRegistry({ fetch: echoingFetchOf(token), vertex: { project: 'p', location: 'us-central1', accessToken: async () => token, baseUrl: 'http://upstream.test' } }).get('vertex')!;
    const error = await failure(() => provider.chat(request('gemini-2.0-flash', false)));
    expect(error.message).not.toContain(token);
  });

  it('scrubs a DOMException (an abort or a timeout) without throwing on its read-only message', () => {
    const set = new SecretSet(['sk-live-0123456789']);
    const timeout = new DOMException('The operation was aborted.', 'TimeoutError');
    expect(scrubError(timeout, set)).toBe(timeout);
    const leaking = new DOMException('aborted while sending sk-live-0123456789', 'AbortError');
    const scrubbed = scrubError(leaking, set) as DOMException;
    expect(scrubbed.message).not.toContain('sk-live-0123456789');
    expect(scrubbed.name).toBe('AbortError');
  });

  it('replaces the longest secret first, and a short one only as a whole word', () => {
    const set = new SecretSet(['abcdef', 'abcdefghij', 'ab']);
    expect(set.scrub('x abcdefghij y abcdef z ab, about')).toBe('x [redacted] y [redacted] z [redacted], about');
    const plain = new Error('token abcdefghij');
    expect((scrubError(plain, set) as Error).stack).not.toContain('abcdefghij');
  });
});

describe('truncated and short keys', () => {
  it('scrubs a key an upstream quotes truncated or masked, and a whole-word short key', () => {
    const set = new SecretSet(['sk-proj-Abc123XyZ789verylongsecretpart', 'k3y']);
    expect(set.scrub('Incorrect API key provided: sk-proj-Abc1***************part.')).toBe('Incorrect API key provided: [redacted].');
    expect(set.scrub('key sk-proj-Abc123Xy... is invalid')).toBe('key [redacted]... is invalid');
    expect(set.scrub('token "k3y" refused; k3yboard fine')).toBe('token "[redacted]" refused; k3yboard fine');
    // Fewer than 8 shared characters (a vendor's `sk-proj` alone) say nothing of the key.
    expect(set.scrub('an sk-proj key', 'pinned-key-0123456')).toBe('an sk-proj key');
    expect(set.scrub('pinned-k*******3456 refused', 'pinned-key-0123456')).toBe('[redacted] refused');
  });
});

function echoingFetchOf(secret: string): typeof globalThis.fetch {
  return async () => new Response(JSON.stringify({ error: { code: 401, message: `bad token ${secret}`, status: 'UNAUTHENTICATED' } }), { status: 401 });
}
