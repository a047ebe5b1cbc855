import { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { apiHeaders } from '@svc/http-kit';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sseResponse } from './sse-response.js';

async function* ready(count: number): AsyncGenerator<string> {
  for (let i = 0; i < count; i++) yield `data: ${i}\n\n`;
}

const options = { headers: {}, keepAliveMs: 15_000, keepAlive: ': keep-alive\n\n', onCancel: () => {} };

/** Node's internal write of a socket: each uncorked `write`, and each corked batch (`writev`), is one call. */
interface SocketWrites {
  _writeGeneric(this: Socket, writev: boolean, data: unknown, encoding: string, callback: (error?: Error | null) => void): unknown;
}

/** One streamed answer through @hono/node-server; the server's socket writes, each as the text it held. */
async function serverWrites(events: () => AsyncIterable<string>): Promise<{ writes: string[]; body: string }> {
  const app = new Hono();
  app.use(apiHeaders());
  // Async, as the routes' handlers are: the answer is written from a promise job.
  app.get('/', async (c) => sseResponse(c, events(), options));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const writes: string[] = [];
  const sockets = Socket.prototype as unknown as SocketWrites;
  const original = sockets._writeGeneric;
  const spy = vi.spyOn(sockets, '_writeGeneric').mockImplementation(function (this: Socket, writev, data, encoding, callback) {
    const chunks: unknown[] = writev ? (data as { chunk: unknown }[]).map((d) => d.chunk) : [data];
    if (this.localPort === (server.address() as AddressInfo).port) writes.push(chunks.map((c) => Buffer.from(c as Uint8Array).toString()).join(''));
    return original.call(this, writev, data, encoding, callback);
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { writes, body: await res.text() };
  } finally {
    spy.mockRestore();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('sseResponse', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends the first two chunks together when the whole answer is at hand, then lets the event loop turn before the rest is worked on', async () => {
    // Off Node (app.request()): an ordinary Response, read as @hono/node-server reads it.
    const app = new Hono();
    app.get('/', async (c) => sseResponse(c, ready(50), options));
    const reader = (await app.request('/')).body!.getReader();
    const decoder = new TextDecoder();
    const read: string[] = [];
    // How many chunks the reader had when the event loop first turned: Node writes a response then.
    let readAtFirstTurn: number | undefined;
    setImmediate(() => {
      readAtFirstTurn = read.length;
    });
    // Read as @hono/node-server does: the next read as soon as a chunk is written.
    for (let next = await reader.read(); !next.done; next = await reader.read()) read.push(decoder.decode(next.value));
    expect(read).toHaveLength(50);
    expect(read[0]).toBe('data: 0\n\n');
    expect(readAtFirstTurn).toBeLessThanOrEqual(2);
  });

  it('on Node, writes the headers, the opening chunk and the first token in one write when they are at hand together', async () => {
    const { writes, body } = await serverWrites(() => ready(20));
    expect(body).toBe(Array.from({ length: 20 }, (_, i) => `data: ${i}\n\n`).join(''));
    expect(writes[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*text\/event-stream[\s\S]*\r\n\r\n/);
    expect(writes[0]).toContain('data: 0\n\n');
    expect(writes[0]).toContain('data: 1\n\n');
    // The headers a middleware adds after the route (to the plain record) are written, the route's own kept.
    expect(writes[0]).toMatch(/x-content-type-options: nosniff\r\n/i);
    expect(writes[0]).toMatch(/cache-control: no-cache\r\n/i);
  });

  it('on Node, still sends the headers at once when no chunk is at hand yet', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* late(): AsyncGenerator<string> {
      await held;
      yield 'data: late\n\n';
    }
    const app = new Hono();
    app.get('/', async (c) => sseResponse(c, late(), options));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      release();
      expect(await res.text()).toBe('data: late\n\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops its keep-alives when the events fail: none is written into the failed stream from a timer', async () => {
    const thrown: unknown[] = [];
    const onUncaught = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', onUncaught);
    async function* failing(): AsyncGenerator<string> {
      yield 'data: 0\n\n';
      throw new Error('the ending failed');
    }
    try {
      const app = new Hono();
      app.get('/', async (c) => sseResponse(c, failing(), { ...options, keepAliveMs: 100 }));
      const res = await app.request('/');
      await expect(res.text()).rejects.toThrow('the ending failed');
      await new Promise((resolve) => setTimeout(resolve, 400));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(thrown).toEqual([]);
  });
});
