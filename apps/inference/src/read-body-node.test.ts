import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { onError, readJson } from '@svc/http-kit';
import { createLogger } from '@svc/telemetry';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// http-kit's readJson on Node reads the IncomingMessage itself: at once when the body is already
// parsed to its end, from its events when it is still arriving. Both through @hono/node-server.
const app = new Hono();
app.onError(onError(createLogger({ level: 'silent' })));
app.post('/echo', async (c) => c.json({ body: await readJson(c, 64) }));
// The route reads after a pause, as a route behind async middleware does: the body is complete by then.
app.post('/late', async (c) => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return c.json({ body: await readJson(c, 64) });
});

let server: ReturnType<typeof serve>;
let port = 0;
beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** POSTs `parts` as a chunked body, `pauseMs` between them; the status and the answer's text. */
function post(path: string, parts: Buffer[], pauseMs = 0): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    const send = async () => {
      for (const [at, part] of parts.entries()) {
        if (at > 0 && pauseMs > 0) await new Promise((done) => setTimeout(done, pauseMs));
        req.write(part);
      }
      req.end();
    };
    void send();
  });
}

const split = (text: string, at: number) => {
  const bytes = Buffer.from(text);
  return [bytes.subarray(0, at), bytes.subarray(at)];
};

describe('readJson on a Node request', () => {
  it('reads a body already complete when the route reads it, in several chunks, split inside a UTF-8 character', async () => {
    const body = '{"text":"héllo wörld"}';
    const answer = await post('/late', split(body, 12));
    expect(answer).toEqual({ status: 200, text: JSON.stringify({ body: { text: 'héllo wörld' } }) });
  });

  it('reads a body still arriving when the route reads it', async () => {
    const answer = await post('/echo', split('{"a":[1,2,3]}', 5), 30);
    expect(answer).toEqual({ status: 200, text: JSON.stringify({ body: { a: [1, 2, 3] } }) });
  });

  it('refuses a complete body past the limit with 413, without a content-length', async () => {
    const answer = await post('/late', split(`{"a":"${'x'.repeat(80)}"}`, 40));
    expect(answer.status).toBe(413);
  });

  it('refuses a body past the limit still arriving with 413', async () => {
    const answer = await post('/echo', split(`{"a":"${'x'.repeat(80)}"}`, 40), 30);
    expect(answer.status).toBe(413);
  });
});
