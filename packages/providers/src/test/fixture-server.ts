import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fixture server received, for asserting what an adapter sent upstream. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** What to answer: a JSON body, or SSE/raw chunks written one by one as a real upstream would. */
export type FixtureReply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; chunks: readonly string[]; delayMs?: number; dropAfter?: number };

export interface FixtureServer {
  /** `http://127.0.0.1:<port>` with no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A local HTTP server that answers recorded wire fixtures. `reply` picks the answer per
 * request, so one test can script a sequence (e.g. 429 then 200).
 */
export async function startFixtureServer(reply: (request: RecordedRequest, index: number) => FixtureReply): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep raw text
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
      requests.push(recorded);
      void answer(res, reply(recorded, requests.length - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(res: ServerResponse, reply: FixtureReply): Promise<void> {
  if ('json' in reply) {
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
    return;
  }
  res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
  for (let i = 0; i < reply.chunks.length; i++) {
    if (reply.dropAfter !== undefined && i >= reply.dropAfter) {
      res.destroy();
      return;
    }
    res.write(reply.chunks[i]);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  }
  res.end();
}

/** Splits a recorded `.chunks.txt` fixture (SSE events separated by blank lines) into writes. */
export function sseChunks(text: string): string[] {
  return text
    .split(/\n\n/)
    .filter((event) => event.trim() !== '')
    .map((event) => `${event}\n\n`);
}
