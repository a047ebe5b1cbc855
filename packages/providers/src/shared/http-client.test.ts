import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Aborter, ProviderError, RequestAbort } from '@svc/core';
import { fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../test/outcomes.js';
import { fetchHttpClient } from './fetch-http-client.js';
import type { HttpClient } from './http-client.js';
import { postJson, readResponseJson } from './http.js';
import { readSse } from './sse.js';
import { createUndiciHttpClient } from './undici-http-client.js';

/** A bare node:http server that counts connections and reports when a socket closes. */
interface TestServer {
  url: string;
  /** Sockets opened so far. */
  connections: number;
  /** Resolves when the socket behind the most recent request closes. */
  requestSocketClosed(): Promise<void>;
  bodies: string[];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startServer(handler: Handler): Promise<TestServer> {
  let lastSocket: Socket | undefined;
  const state: TestServer = {
    url: '',
    connections: 0,
    bodies: [],
    requestSocketClosed: () => {
      const socket = lastSocket;
      if (!socket) return Promise.reject(new Error('no request yet'));
      return socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
    },
  };
  const server = createServer((req, res) => {
    lastSocket = req.socket;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => {
      body += part;
    });
    req.on('end', () => {
      state.bodies.push(body);
      void handler(req, res);
    });
  });
  server.on('connection', () => state.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (n: number) => `data: {"n":${n}}\n\n`;

/** Writes `count` SSE events `gapMs` apart, then ends; `hold` keeps the response open instead. */
function sse(count: number, gapMs: number, end: 'end' | 'hold' | 'drop' = 'end'): Handler {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let n = 0; n < count; n++) {
      if (res.destroyed) return;
      res.write(event(n));
      await sleep(gapMs);
    }
    if (end === 'end') res.end();
    else if (end === 'drop') res.destroy();
  };
}

const undici = createUndiciHttpClient();
afterAll(() => undici.close());

const clients: [string, HttpClient][] = [
  ['undici client', undici],
  ['fetch client', fetchHttpClient(globalThis.fetch)],
  // undici 7's own fetch: it refuses a signal that is not Node's (a request's RequestAbort is made one).
  ['fetch client over undici 7', fetchHttpClient(undiciFetch as unknown as typeof globalThis.fetch)],
];

/** Node's controller, and the request path's own (whose signal is not Node's class). */
const controllers: [string, () => Aborter][] = [
  ['AbortController', () => new AbortController()],
  ['RequestAbort', () => new RequestAbort()],
];

describe.each(clients)('%s', (_name, http) => {
  const post = (url: string, signal?: AbortSignal) => postJson({ provider: 'test', http, url, headers: { 'x-key': 'k' }, body: { hello: 'wörld' }, signal });

  it('sends the JSON body and headers and reads a JSON answer', async () => {
    let seen: IncomingMessage['headers'] = {};
    const server = await startServer((req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
      res.end('{"ok":true}');
    });
    const response = await post(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(response.headers.get('x-absent')).toBeNull();
    expect(await readResponseJson('test', response, undefined)).toEqual({ ok: true });
    expect(server.bodies).toEqual(['{"hello":"wörld"}']);
    expect(seen).toMatchObject({ 'content-type': 'application/json', 'x-key': 'k', 'content-length': String(Buffer.byteLength('{"hello":"wörld"}')) });
  });

  it('reports the response headers (time to first byte) before the body has arrived', async () => {
    const server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      await sleep(100);
      res.end('{"ok":true}');
    });
    const started = performance.now();
    let headersAt = 0;
    const response = await postJson({ provider: 'test', http, url: server.url, headers: {}, body: {}, onResponse: () => (headersAt = performance.now() - started) });
    expect(await readResponseJson('test', response, undefined)).toEqual({ ok: true });
    expect(headersAt).toBeGreaterThan(0);
    expect(headersAt).toBeLessThan(performance.now() - started - 50);
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const server = await startServer((_req, res) => res.end('{}'));
    for (let i = 0; i < 4; i++) {
      await readResponseJson('test', await post(server.url), undefined);
      // undici returns the socket to the pool just after the body's end; a request sent in that
      // same tick opens a second connection (which is then reused too).
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.connections).toBe(1);
  });

  it('classifies a non-2xx answer from its body and retry headers', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '2' });
      res.end('slow down');
    });
    const error = await rejection(post(server.url));
    expect(error).toMatchObject({ kind: 'rate_limit', upstreamStatus: 429, retryAfterMs: 2000, message: 'slow down' });
  });

  it('yields SSE messages as they arrive, split across chunks and multi-byte characters', async () => {
    const server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = Buffer.from('event: a\ndata: héllo\n\ndata: two\n\n');
      // One byte per write, so 'é' is split and the parser sees every partial line.
      for (const byte of bytes) {
        res.write(Buffer.from([byte]));
        await sleep(0);
      }
      res.end();
    });
    const messages = [];
    for await (const message of readSse('test', (await post(server.url)).body)) messages.push({ event: message.event, data: message.data });
    expect(messages).toEqual([
      { event: 'a', data: 'héllo' },
      { event: undefined, data: 'two' },
    ]);
  });

  it('delivers the first event before the upstream finished', async () => {
    const server = await startServer(sse(5, 200));
    const started = Date.now();
    const messages = readSse('test', (await post(server.url)).body)[Symbol.asyncIterator]();
    expect((await messages.next()).value?.data).toBe('{"n":0}');
    expect(Date.now() - started).toBeLessThan(500);
    await messages.return(undefined);
  });

  it('turns a connection dropped mid-stream into a network ProviderError', async () => {
    const server = await startServer(sse(2, 20, 'drop'));
    const seen: string[] = [];
    const error = await (async () => {
      for await (const message of readSse('test', (await post(server.url)).body)) seen.push(message.data);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'network' });
    expect(seen).toEqual(['{"n":0}', '{"n":1}']);
  });

  it.each(controllers)('aborting mid-body (%s) rejects the read as a timeout and closes the upstream socket', async (_kind, make) => {
    const server = await startServer(sse(1, 0, 'hold'));
    const controller = make();
    const messages = readSse('test', (await post(server.url, controller.signal)).body, controller.signal)[Symbol.asyncIterator]();
    await messages.next();
    const pending = messages.next();
    controller.abort();
    const error = await rejection(pending);
    expect(error.kind).toBe('timeout');
    await server.requestSocketClosed();
  });

  it.each(controllers)('aborting a text() read (%s) rejects it as a timeout', async (_kind, make) => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const controller = make();
    const response = await post(server.url, controller.signal);
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(readResponseJson('test', response, controller.signal));
    expect(error.kind).toBe('timeout');
  });

  it('closes the upstream socket when the consumer stops early', async () => {
    const server = await startServer(sse(100, 10, 'hold'));
    for await (const message of readSse('test', (await post(server.url)).body)) {
      if (message.data === '{"n":1}') break;
    }
    await server.requestSocketClosed();
    // The next request works, on a fresh connection.
    const next = await startServer((_req, res) => res.end('{"again":true}'));
    expect(await readResponseJson('test', await post(next.url), undefined)).toEqual({ again: true });
  });

  it('fails before the headers with a network error when nothing listens', async () => {
    const server = await startServer((_req, res) => res.end());
    for (const started of servers.splice(0)) await new Promise((resolve) => started.close(resolve));
    const error = await rejection(post(server.url));
    expect(error.kind).toBe('network');
  });
});
