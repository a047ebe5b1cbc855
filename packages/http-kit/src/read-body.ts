import { invalidRequest, payloadTooLarge } from '@svc/core';
import type { Context } from 'hono';
import { type JsonShapeRules, checkJsonShape } from './json-shape.js';
import type { IncomingMessage } from 'node:http';
import { nodeIncoming } from './node-request.js';

/**
 * Reads the request body as text, refusing more than `limit` bytes (413).
 *
 * On Node the body is read straight from the IncomingMessage: going through `c.req.text()`
 * would first wrap it in a WHATWG ReadableStream, a measurable cost on every request. Other
 * runtimes (and `app.request()` in tests) use the standard path.
 */
export async function readBodyText(c: Context, limit: number): Promise<string> {
  const incoming = nodeIncoming(c);
  if (!incoming) {
    const declared = Number(c.req.header('content-length'));
    if (declared > limit) throw payloadTooLarge(limit);
    const text = await c.req.text();
    if (Buffer.byteLength(text) > limit) throw payloadTooLarge(limit);
    return text;
  }
  const declared = Number(incoming.headers['content-length']);
  if (declared > limit) throw payloadTooLarge(limit);
  return readIncoming(incoming, limit, declared);
}

/**
 * The body of a Node request from its `data` and `end` events: a stream's async iterator (what
 * `for await` uses) costs a promise and a wrapper per chunk, on every request. Past `limit` it stops
 * collecting and rejects; the rest is drained (the stream keeps flowing without a listener) while
 * the 413 is sent. A request closed before its end rejects.
 */
function readIncoming(incoming: IncomingMessage, limit: number, declared: number): Promise<string> | string {
  if (incoming.readableEnded) return '';
  // Every byte already buffered and nothing read yet (a small body usually is by the time the route
  // runs: its declared length, or the parser saw its end): taken in one `read()`, without the
  // listeners, the resume and the promise of the flowing path.
  const buffered = incoming.readableLength;
  if (incoming.readableFlowing === null && buffered > 0 && (buffered === declared || (incoming.complete && buffered <= limit))) {
    const body = incoming.read() as Buffer | null;
    // Flowing with nothing left to give: 'end' comes once the parser has seen the message's end
    // (@hono/node-server otherwise drains the request after the answer, with a timer and listeners).
    incoming.resume();
    return body === null ? '' : body.toString('utf8');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | undefined) => {
      incoming.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(payloadTooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(undefined);
    const onClose = () => settle(Object.assign(new Error('the request was closed before its body ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    incoming.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose);
  });
}

/**
 * Parses a JSON body; malformed JSON is a 400, not a 500, and so is a body that is valid JSON but
 * no store or walker can take (nested past `rules.maxDepth`, lone surrogates, NUL by rule).
 */
export async function readJson(c: Context, limit: number, rules?: JsonShapeRules): Promise<unknown> {
  const text = await readBodyText(c, limit);
  if (text.length === 0) throw invalidRequest('The request body is empty; send a JSON object.', null, 'invalid_json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest('The request body is not valid JSON.', null, 'invalid_json');
  }
  checkJsonShape(value, rules);
  return value;
}
