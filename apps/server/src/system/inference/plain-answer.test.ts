import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { plainAnswer, responseHeader, setResponseHeader } from '@svc/http-kit';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.js';

/** Serves `fetch` on a real socket (the Node path of plainAnswer) while `run` sends to its base URL. */
async function overSocket<T>(fetcher: (request: Request, env: unknown) => Response | Promise<Response>, run: (base: string) => Promise<T>): Promise<T> {
  const server = serve({ fetch: fetcher, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('plainAnswer on Node', () => {
  it('writes the headers middleware adds, whether it adds them to the record or after reading the Headers', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      c.res.headers.set('x-after-headers', String(responseHeader(c, 'x-route')));
      setResponseHeader(c, 'x-helper-after', 'yes');
    });
    app.use(async (c, next) => {
      await next();
      setResponseHeader(c, 'x-helper', responseHeader(c, 'x-route') ?? 'missing');
      setResponseHeader(c, 'x-route', 'overwritten', true);
    });
    app.get('/', (c) => plainAnswer(c, '{"ok":true}', 201, { 'content-type': 'application/json', 'x-route': 'route' }));
    const response = await overSocket(app.fetch, (base) => fetch(base));
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('{"ok":true}');
    expect(Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('x-') || name.startsWith('content-')))).toEqual({
      'content-length': '11',
      'content-type': 'application/json',
      'x-route': 'route',
      'x-helper': 'route',
      'x-after-headers': 'route',
      'x-helper-after': 'yes',
    });
  });
});

const master = 'sk-svc-plain-answer-test-master-0d6b1f5c2a9e4b7d8c3f';
const test = useTestApp(master);
let base = '';
let close: () => Promise<void>;

beforeAll(async () => {
  const server = serve({ fetch: test.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

describe('a proxied JSON chat answer over a socket', () => {
  it('carries the answer headers, the API headers and its length, and is counted by model', async () => {
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${master}`, 'x-intelligence-mode': 'proxy' },
      body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'plain answer' }] }),
    });
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ object: 'chat.completion' });
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-svc-model')).toBe('mock/mock-value');
    expect(response.headers.get('x-svc-intelligence-mode')).toBe('proxy');
    expect(response.headers.get('x-svc-cache-hit')).toBe('false');
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/svc_requests_total\{route="\/v1\/chat\/completions",status="200",model="mock\/mock-value",provider="mock",cache="false"\} 1/);
  });
});
