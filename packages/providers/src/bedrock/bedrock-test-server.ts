import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { FixtureServer, RecordedRequest } from '../test/fixture-server.js';

/*
 * Test-only: the shared fixture server writes text chunks, but a ConverseStream body is binary
 * (`application/vnd.amazon.eventstream`), encoded by `encodeFrames` from recorded event lists
 * (`__fixtures__/<case>.events.json`).
 */

export { type RecordedFrame, encodeFrames } from './bedrock-frames.js';

export interface EventStreamReply {
  status?: number;
  frames: readonly Uint8Array[];
  /** Splits every frame into writes of this many bytes, so frames cross chunk boundaries. */
  splitBytes?: number;
  delayMs?: number;
  /** Destroys the socket before write number `dropAfter` (counted in writes). */
  dropAfter?: number;
}

/** A started server; `closed` resolves when the latest response's connection closed, `complete` tells whether it was written in full. */
export interface EventStreamServer extends FixtureServer {
  closed(): Promise<{ complete: boolean }>;
}

/** For a test file: starts binary event-stream servers and closes them after each test. */
export function useEventStreamServer(): (reply: (request: RecordedRequest) => EventStreamReply) => Promise<EventStreamServer> {
  const servers: FixtureServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (reply) => {
    const requests: RecordedRequest[] = [];
    let closed: Promise<{ complete: boolean }> = Promise.reject(new Error('no request yet'));
    closed.catch(() => {});
    const server = createServer((req, res) => {
      let complete = false;
      closed = new Promise((resolve) => res.on('close', () => resolve({ complete })));
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', async () => {
        const raw = Buffer.concat(parts).toString('utf8');
        const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: raw ? JSON.parse(raw) : undefined };
        requests.push(recorded);
        const answer = reply(recorded);
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req-stream-1' });
        const writes = answer.frames.flatMap((frame) => split(frame, answer.splitBytes));
        for (let i = 0; i < writes.length; i++) {
          if (answer.dropAfter !== undefined && i >= answer.dropAfter) {
            res.destroy();
            return;
          }
          if (res.destroyed) return;
          res.write(writes[i]);
          if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        }
        complete = true;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const started: EventStreamServer = {
      closed: () => closed,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
    servers.push(started);
    return started;
  };
}

function split(frame: Uint8Array, size: number | undefined): Uint8Array[] {
  if (!size) return [frame];
  const out: Uint8Array[] = [];
  for (let at = 0; at < frame.byteLength; at += size) out.push(frame.subarray(at, at + size));
  return out;
}
