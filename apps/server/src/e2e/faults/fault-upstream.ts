import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Every way the fault upstream can misbehave; `ok` answers normally. */
export const UPSTREAM_FAULTS = ['ok', 'reset', '5xx', '429', 'hang-headers', 'hang-mid', 'truncated', 'malformed', 'slow-drip'] as const;
export type UpstreamFault = (typeof UPSTREAM_FAULTS)[number];

/** Faults after which the upstream's answer is not whole: the gateway must never pass it on as complete. */
export const BROKEN_FAULTS: ReadonlySet<UpstreamFault> = new Set(['reset', '5xx', '429', 'hang-headers', 'hang-mid', 'truncated']);

/** The answer's text, word by word: a complete answer holds all of it. */
export const ANSWER_WORDS = ['fault', 'suite', 'answer', 'complete', 'sentence'];
const DRIP_MS = 150;

export interface FaultUpstream {
  url: string;
  fault: UpstreamFault;
  /** Requests received since the last `reset()`, by path. */
  calls: string[];
  reset(fault: UpstreamFault): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function chatChunk(delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const usage = { prompt_tokens: 7, completion_tokens: ANSWER_WORDS.length, total_tokens: 7 + ANSWER_WORDS.length };

function chatJson(): string {
  return JSON.stringify({
    id: 'chatcmpl-fault',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: ANSWER_WORDS.join(' ') }, finish_reason: 'stop' }],
    usage,
  });
}

function embeddingsJson(inputs: number): string {
  const data = Array.from({ length: inputs }, (_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3, 0.4] }));
  return JSON.stringify({ object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 3, total_tokens: 3 } });
}

/** The SSE frames of a whole streamed answer, usage and `[DONE]` included. */
function streamFrames(): string[] {
  return [
    chatChunk({ role: 'assistant', content: '' }, null),
    ...ANSWER_WORDS.map((word, i) => chatChunk({ content: i === 0 ? word : ` ${word}` }, null)),
    chatChunk({}, 'stop'),
    `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage })}\n\n`,
    'data: [DONE]\n\n',
  ];
}

function errorBody(status: number): string {
  const type = status === 429 ? 'requests' : 'server_error';
  return JSON.stringify({ error: { message: `fault upstream answered ${status}`, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } });
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Writes `body` a few bytes at a time: the whole answer arrives, slowly. */
async function drip(res: ServerResponse, body: string, pieces: number): Promise<void> {
  const size = Math.ceil(body.length / pieces);
  for (let at = 0; at < body.length; at += size) {
    if (res.destroyed) return;
    res.write(body.slice(at, at + size));
    await sleep(DRIP_MS);
  }
  res.end();
}

/** One streamed answer under `fault` (the faults before headers are handled by the caller). */
async function answerStream(res: ServerResponse, fault: UpstreamFault): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const frames = streamFrames();
  if (fault === 'hang-mid') {
    res.write(frames.slice(0, 3).join(''));
    return; // never another byte
  }
  if (fault === 'truncated') {
    res.write(frames.slice(0, 3).join(''));
    res.write(frames[3]!.slice(0, 30));
    res.socket?.destroy();
    return;
  }
  if (fault === 'malformed') {
    res.write(frames.slice(0, 2).join(''));
    res.write('data: {"choices":[{"delta":{"content":\n\nevent: nonsense\ndata: <html>bad gateway</html>\n\n: comment\n\n');
    res.end(frames.slice(2).join(''));
    return;
  }
  if (fault === 'slow-drip') {
    for (const frame of frames) {
      if (res.destroyed) return;
      res.write(frame);
      await sleep(DRIP_MS);
    }
    res.end();
    return;
  }
  res.end(frames.join(''));
}

/** One JSON answer (chat or embeddings) under `fault`. */
async function answerJson(res: ServerResponse, fault: UpstreamFault, body: string): Promise<void> {
  if (fault === 'hang-mid') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.write(body.slice(0, Math.floor(body.length / 2)));
    return;
  }
  if (fault === 'truncated') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(body.slice(0, Math.floor(body.length / 2)));
    res.end();
    return;
  }
  if (fault === 'malformed') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('<html><body>502 Bad Gateway</body></html>');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  if (fault === 'slow-drip') await drip(res, body, 8);
  else res.end(body);
}

async function handle(state: FaultUpstream, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://upstream').pathname;
  state.calls.push(path);
  const fault = state.fault;
  const body = await readBody(req);
  if (fault === 'reset') {
    req.socket.destroy();
    return;
  }
  if (fault === 'hang-headers') return; // the socket stays open, silent, until the gateway gives up
  if (fault === '5xx' || fault === '429') {
    const status = fault === '429' ? 429 : 500;
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) });
    res.end(errorBody(status));
    return;
  }
  if (path.endsWith('/embeddings')) {
    const inputs = Array.isArray(body.input) ? body.input.length : 1;
    await answerJson(res, fault, embeddingsJson(inputs));
    return;
  }
  if (!path.endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(errorBody(404));
    return;
  }
  if (body.stream === true) await answerStream(res, fault);
  else await answerJson(res, fault, chatJson());
}

/**
 * An OpenAI-wire upstream (`/v1/chat/completions` JSON and SSE, `/v1/embeddings`) that answers
 * with one fault at a time, on raw sockets: what `@svc/mock-upstream` cannot do (resets, hangs
 * after the headers, cut or malformed bodies, drips).
 */
export async function startFaultUpstream(): Promise<FaultUpstream> {
  const sockets = new Set<Socket>();
  const state: FaultUpstream = {
    url: '',
    fault: 'ok',
    calls: [],
    reset(fault) {
      state.fault = fault;
      state.calls = [];
      // Hung answers of the last fault are cut, so they cannot leak into the next one.
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    void handle(state, req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
