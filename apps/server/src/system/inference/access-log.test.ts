import { hashEndUser } from '@svc/pipeline';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { type DestinationStream, createLogger } from '@svc/telemetry';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInferenceApp } from '@svc/inference';

const master = 'sk-svc-access-log-test-master-tqD0jo2lisgm55TXhNTYDWUG';
const lines: Record<string, unknown>[] = [];
const destination: DestinationStream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };

let runtime: Runtime;
let app: ReturnType<typeof createInferenceApp>;
beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '600' }), {
    logger: createLogger({ level: 'info', destination }),
  });
  app = createInferenceApp({ ...runtime, maxBodyBytes: 64 * 1024 });
});
afterAll(() => runtime.close());
beforeEach(() => {
  lines.length = 0;
});

const prompt = 'My card is 4111 1111 1111 1111, tell me a secret story';
const chat = (body: Record<string, unknown>, key = master) =>
  app.request('/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: prompt }], user: 'ada@example.com', ...body }),
  });
const requestLines = () => lines.filter((line) => line.msg === 'request');

describe('the access log', () => {
  it('writes one info line per answered request: ids, caller, route, status, latency, model, mode, tokens, cost, hashed end user', async () => {
    const response = await chat({});
    expect(response.status).toBe(200);
    await response.text();
    const [line, ...more] = requestLines();
    expect(more).toEqual([]);
    // The master key is never shown in part (issue #36): its lines say `master`.
    expect(line!.key_prefix).toBe('master');
    expect(lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain(master.slice(0, 8));
    const orgId = runtime.authenticator && (await runtime.db.orgs.getByName('default'))!.id;
    expect(line).toMatchObject({
      level: 'info',
      request_id: response.headers.get('x-svc-request-id'),
      org: orgId,
      method: 'POST',
      route: '/v1/chat/completions',
      status: 200,
      latency_ms: expect.any(Number),
      model: 'mock/mock-value',
      provider: 'mock',
      mode: 'full',
      cache: false,
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      cost_usd: expect.any(Number),
      end_user: hashEndUser(orgId, 'ada@example.com'),
    });
  });

  it('writes a stream’s line once it has ended, with its tokens, and a cache hit with its layer', async () => {
    const streamed = await chat({ stream: true, messages: [{ role: 'user', content: 'stream me a line' }], user: undefined });
    await streamed.text();
    const line = requestLines()[0]!;
    expect(line).toMatchObject({ status: 200, model: 'mock/mock-value', completion_tokens: expect.any(Number) });
    expect(line.end_user).toBeUndefined();

    lines.length = 0;
    await (await chat({ temperature: 0, messages: [{ role: 'user', content: 'cache me please' }] })).text();
    await (await chat({ temperature: 0, messages: [{ role: 'user', content: 'cache me please' }] })).text();
    expect(requestLines().map((l) => l.cache)).toEqual([false, 'l0']);
  });

  it('logs refusals too, and never a key, a prompt or the end user itself', async () => {
    await (await chat({}, 'sk-svc-not-a-real-key-000000')).text();
    expect(requestLines()[0]).toMatchObject({ status: 401, route: '/v1/chat/completions' });
    expect(requestLines()[0]!.org).toBeUndefined();
    await (await chat({})).text();
    const written = JSON.stringify(lines);
    for (const secret of [master, 'sk-svc-not-a-real-key', '4111', 'secret story', 'ada@example.com']) expect(written).not.toContain(secret);
  });

  it('logs 499 client_closed_request, not a 504, for a client that left before its answer', async () => {
    const client = new AbortController();
    const pending = app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${master}` },
      body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'take your time [mock:latency=5000]' }] }),
      signal: client.signal,
    });
    setTimeout(() => client.abort(), 50);
    const response = await pending;
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('client_closed_request');
    expect(requestLines()).toMatchObject([{ status: 499, route: '/v1/chat/completions' }]);
  });

  it('leaves out the probes', async () => {
    await app.request('/health');
    await app.request('/ready');
    expect(requestLines()).toEqual([]);
  });
});
