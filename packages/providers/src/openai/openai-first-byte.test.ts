import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { createProviderRegistry } from '../registry.js';
import { fetchHttpClient } from '../shared/fetch-http-client.js';
import { createUndiciHttpClient } from '../shared/undici-http-client.js';
import { collect, rejection } from '../test/outcomes.js';
import { createOpenAIProvider } from './openai-provider.js';

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
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const closed = () => (socket === undefined || socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => socket!.once('close', () => resolve())));
  return { baseUrl, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const chunk = (text: string) => `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const finish = `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
const answer = JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'late but whole' }, finish_reason: 'stop' }] });

const request = (stream: boolean): ProviderChatRequest => ({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream, n: 1, includeUsage: false });

/** undici keeps its header timers at ~1 s resolution: a 200 ms bound fires within ~1.2 s (more on a loaded machine). */
const BOUND_MS = 200;
const LATEST_MS = 5_000;

describe('openai adapter: the first-byte bound kept by the provider itself (no signal of the caller)', () => {
  it('is declared by a provider on the undici client, not by one on a fetch', () => {
    expect(createOpenAIProvider({ apiKeys: ['k'], http }).boundsFirstByte).toBe(true);
    expect(createOpenAIProvider({ apiKeys: ['k'], http: fetchHttpClient(globalThis.fetch) }).boundsFirstByte).toBe(false);
    // Through the registry's decorators (key fall-through over two keys, secret scrubbing) too.
    expect(createProviderRegistry({ openai: { apiKeys: ['k1', 'k2'] }, http }).get('openai')?.boundsFirstByte).toBe(true);
  });

  it('fails a JSON call whose headers do not come in time as a timeout, and closes the upstream connection', async () => {
    const server = await upstream(() => {}); // accepts the request, never answers
    const provider = createOpenAIProvider({ apiKeys: ['k'], baseUrl: server.baseUrl, http });
    const started = performance.now();
    const error = await rejection(provider.chat(request(false), { firstByteBy: performance.now() + BOUND_MS }));
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 5);
    expect(performance.now() - started).toBeLessThan(LATEST_MS);
    await server.closed();
  });

  it('bounds only the headers of a JSON call: a long answer after them is not cut', async () => {
    const server = await upstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await sleep(BOUND_MS * 4);
      res.end(answer);
    });
    const provider = createOpenAIProvider({ apiKeys: ['k'], baseUrl: server.baseUrl, http });
    const result = await provider.chat(request(false), { firstByteBy: performance.now() + BOUND_MS });
    expect(result.choices[0]!.message.content).toBe('late but whole');
  });

  it("fails a stream whose first event does not come in time, headers or not, and closes the upstream connection", async () => {
    const server = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': keep-alive comment, not an event\n\n');
    });
    const provider = createOpenAIProvider({ apiKeys: ['k'], baseUrl: server.baseUrl, http });
    const started = performance.now();
    const events = (await provider.stream(request(true), { firstByteBy: performance.now() + BOUND_MS }))[Symbol.asyncIterator]();
    const error = await rejection(events.next());
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 5);
    expect(performance.now() - started).toBeLessThan(LATEST_MS);
    await server.closed();
  });

  it('stops bounding a stream at its first event: a silence after it is not a timeout', async () => {
    const server = await upstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('first'));
      await sleep(BOUND_MS * 3);
      res.end(`${chunk(' then the rest')}${finish}`);
    });
    const provider = createOpenAIProvider({ apiKeys: ['k'], baseUrl: server.baseUrl, http });
    const events = await collect(await provider.stream(request(true), { firstByteBy: performance.now() + BOUND_MS }));
    expect(events.filter((event) => event.type === 'text-delta').map((event) => event.type === 'text-delta' && event.text)).toEqual(['first', ' then the rest']);
  });

  it('still cancels the upstream when the caller aborts its signal', async () => {
    const server = await upstream(() => {});
    const provider = createOpenAIProvider({ apiKeys: ['k'], baseUrl: server.baseUrl, http });
    const controller = new AbortController();
    const pending = provider.chat(request(false), { signal: controller.signal, firstByteBy: performance.now() + 60_000 });
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(pending);
    expect(error.kind).toBe('timeout');
    await server.closed();
  });
});
