import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../anthropic/anthropic-provider.js';
import { createAzureOpenAIProvider } from '../azure/azure-provider.js';
import { type RecordedFrame, encodeFrames } from '../bedrock/bedrock-frames.js';
import { createBedrockProvider } from '../bedrock/bedrock-provider.js';
import { createCohereProvider } from '../cohere/cohere-provider.js';
import { createGeminiProvider } from '../gemini/gemini-provider.js';
import { createOpenAIProvider } from '../openai/openai-provider.js';
import type { Provider, ProviderChatRequest } from '../provider.js';
import { createProviderRegistry } from '../registry.js';
import { createVertexProvider } from '../vertex/vertex-provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, rejection } from '../test/outcomes.js';
import { fetchHttpClient } from './fetch-http-client.js';
import type { HttpClient } from './http-client.js';
import { createUndiciHttpClient } from './undici-http-client.js';

/*
 * The first-byte bound kept by the adapters themselves on the undici client (OpenAI and the
 * OpenAI-compatible, Azure, Anthropic, Gemini, Vertex, Cohere, Bedrock): a JSON call's response headers, a stream's first
 * event (an SSE message; a Bedrock event-stream frame) by `CallOptions.firstByteBy`, with no signal
 * of the caller's own.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const http = createUndiciHttpClient();
afterAll(() => http.close());

/** A node:http upstream; `closed` resolves when the socket of the latest request closes. */
async function upstream(handler: Handler): Promise<{ baseUrl: string; closed: () => Promise<void> }> {
  let socket: Socket | undefined;
  const server = createServer((req, res) => {
    socket = req.socket;
    req.resume();
    req.on('end', () => void handler(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = () => (socket === undefined || socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => socket!.once('close', () => resolve())));
  return { baseUrl, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fixtures = (provider: string) => fixtureFiles(new URL(`../${provider}/__fixtures__/`, import.meta.url));

/** One adapter as these tests drive it: how it is made, its JSON answer, and its stream's first event and the rest. */
interface Case {
  name: string;
  make(baseUrl: string, client: HttpClient): Provider;
  model: string;
  json: string;
  streamType: string;
  first: string | Uint8Array;
  rest: string | Uint8Array;
  /** Bytes after the headers that are no event (an SSE comment); none for an event stream. */
  notAnEvent: string | undefined;
}

function sseCase(chunks: string[]): Pick<Case, 'streamType' | 'first' | 'rest' | 'notAnEvent'> {
  return { streamType: 'text/event-stream', first: chunks[0]!, rest: chunks.slice(1).join(''), notAnEvent: ': keep-alive comment, not an event\n\n' };
}

const bedrockFrames = encodeFrames(fixtures('bedrock').json('text.events') as RecordedFrame[]);
const cases: Case[] = [
  {
    name: 'openai',
    make: (baseUrl, client) => createOpenAIProvider({ apiKeys: ['k'], baseUrl: `${baseUrl}/v1`, http: client }),
    model: 'gpt-4o-mini',
    json: JSON.stringify(fixtures('openai').json('text')),
    ...sseCase(fixtures('openai').chunks('text')),
  },
  {
    name: 'anthropic',
    make: (baseUrl, client) => createAnthropicProvider({ apiKeys: ['k'], baseUrl, http: client }),
    model: 'claude-sonnet-4-5',
    json: JSON.stringify(fixtures('anthropic').json('text')),
    ...sseCase(fixtures('anthropic').chunks('text')),
  },
  {
    name: 'gemini',
    make: (baseUrl, client) => createGeminiProvider({ apiKeys: ['k'], baseUrl, http: client }),
    model: 'gemini-2.5-flash',
    json: JSON.stringify(fixtures('gemini').json('text')),
    ...sseCase(fixtures('gemini').chunks('text')),
  },
  {
    name: 'azure',
    make: (baseUrl, client) => createAzureOpenAIProvider({ apiKeys: ['k'], baseUrl, http: client }),
    model: 'gpt-4o-mini',
    json: JSON.stringify(fixtures('azure').json('text')),
    ...sseCase(fixtures('azure').chunks('text')),
  },
  {
    name: 'cohere',
    make: (baseUrl, client) => createCohereProvider({ apiKeys: ['k'], baseUrl, http: client }),
    model: 'command-a-03-2025',
    json: JSON.stringify(fixtures('cohere').json('text')),
    ...sseCase(fixtures('cohere').chunks('text')),
  },
  {
    name: 'vertex (Gemini)',
    make: (baseUrl, client) => createVertexProvider({ project: 'p', location: 'us-central1', accessToken: 't', baseUrl, http: client }),
    model: 'gemini-2.5-flash',
    json: JSON.stringify(fixtures('vertex').json('gemini-text')),
    ...sseCase(fixtures('vertex').chunks('gemini-text')),
  },
  {
    name: 'vertex (Claude)',
    make: (baseUrl, client) => createVertexProvider({ project: 'p', location: 'us-east5', accessToken: 't', baseUrl, http: client }),
    model: 'claude-sonnet-4-5@20250929',
    json: JSON.stringify(fixtures('vertex').json('claude-text')),
    ...sseCase(fixtures('vertex').chunks('claude-text')),
  },
  {
    name: 'bedrock',
    make: (baseUrl, client) => createBedrockProvider({ region: 'us-east-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' }, baseUrl, http: client }),
    model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    json: JSON.stringify(fixtures('bedrock').json('text')),
    streamType: 'application/vnd.amazon.eventstream',
    first: bedrockFrames[0]!,
    rest: Buffer.concat(bedrockFrames.slice(1)),
    notAnEvent: undefined,
  },
];

/** undici keeps its header timers at ~1 s resolution: a 200 ms bound fires within ~1.2 s (more on a loaded machine). */
const BOUND_MS = 200;
const LATEST_MS = 5_000;

describe.each(cases)('$name adapter: the first-byte bound kept by the provider itself (no signal of the caller)', (c) => {
  const request = (stream: boolean): ProviderChatRequest => ({ model: c.model, messages: [{ role: 'user', content: 'Hi' }], stream, n: 1, includeUsage: true });

  it('is declared by a provider on the undici client, not by one on a fetch', () => {
    expect(c.make('http://127.0.0.1:1', http).boundsFirstByte).toBe(true);
    expect(c.make('http://127.0.0.1:1', fetchHttpClient(globalThis.fetch)).boundsFirstByte).toBe(false);
  });

  it('fails a JSON call whose headers do not come in time as a timeout, and closes the upstream connection', async () => {
    const server = await upstream(() => {}); // accepts the request, never answers
    const started = performance.now();
    const error = await rejection(c.make(server.baseUrl, http).chat(request(false), { firstByteBy: performance.now() + BOUND_MS }));
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 5);
    expect(performance.now() - started).toBeLessThan(LATEST_MS);
    await server.closed();
  });

  it('bounds only the headers of a JSON call: a long answer after them is not cut', async () => {
    const server = await upstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await sleep(BOUND_MS * 4);
      res.end(c.json);
    });
    const result = await c.make(server.baseUrl, http).chat(request(false), { firstByteBy: performance.now() + BOUND_MS });
    expect(result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
  });

  it('fails a stream whose first event does not come in time, headers or not, and closes the upstream connection', async () => {
    const server = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': c.streamType });
      if (c.notAnEvent !== undefined) res.write(c.notAnEvent);
      else res.flushHeaders();
    });
    const started = performance.now();
    const events = (await c.make(server.baseUrl, http).stream(request(true), { firstByteBy: performance.now() + BOUND_MS }))[Symbol.asyncIterator]();
    const error = await rejection(events.next());
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 5);
    expect(performance.now() - started).toBeLessThan(LATEST_MS);
    await server.closed();
  });

  it('stops bounding a stream at its first event: a silence after it is not a timeout', async () => {
    const server = await upstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': c.streamType });
      res.write(c.first);
      await sleep(BOUND_MS * 3);
      res.end(c.rest);
    });
    const events = await collect(await c.make(server.baseUrl, http).stream(request(true), { firstByteBy: performance.now() + BOUND_MS }));
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text).toBe('Hello! How can I help you today?');
    expect(events.some((event) => event.type === 'finish')).toBe(true);
  });

  it('still cancels the upstream when the caller aborts its signal', async () => {
    const server = await upstream(() => {});
    const controller = new AbortController();
    const pending = c.make(server.baseUrl, http).chat(request(false), { signal: controller.signal, firstByteBy: performance.now() + 60_000 });
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(pending);
    expect(error.kind).toBe('timeout');
    await server.closed();
  });
});

describe('the flag through the registry decorators (key fall-through over two keys, secret scrubbing)', () => {
  it('is kept for each adapter on the undici client', () => {
    const registry = createProviderRegistry({
      openai: { apiKeys: ['o1', 'o2'] },
      anthropic: { apiKeys: ['a1', 'a2'] },
      gemini: { apiKeys: ['g1', 'g2'] },
      bedrock: { region: 'us-east-1', apiKeys: ['b1', 'b2'] },
      azure: { apiKeys: ['z1', 'z2'], baseUrl: 'https://example.openai.azure.com' },
      cohere: { apiKeys: ['c1', 'c2'] },
      vertex: { project: 'p', location: 'us-central1', accessToken: 'token' },
      http,
    });
    for (const id of ['openai', 'anthropic', 'gemini', 'bedrock', 'azure', 'cohere', 'vertex']) expect(registry.get(id)?.boundsFirstByte).toBe(true);
  });
});
