import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type ChatScript, jsonAnswer } from './answer.js';
import { estimateTokens } from './answer-text.js';
import { behaviourFromJson, DEFAULT_BEHAVIOUR, type MockBehaviour } from './behaviour.js';
import { faultAnswer, invalidRequest, isStatusFault, notFound, unknownModel } from './faults.js';
import { REALTIME_PATHS, createRealtimeHandler } from './openai-realtime.js';
import { asRecord } from './json.js';
import { AnthropicBatches } from './anthropic-batches.js';
import type { LineAnswer } from './batch-run.js';
import { OpenAIBatches } from './openai-batches.js';
import { type FailCounters, planRequest } from './plan-request.js';
import { PromptCache } from './prompt-cache.js';
import { parseColour, solidPng } from './png.js';
import { dialectOf, matchRoute } from './routes.js';
import { type Timers, writeAnswer } from './write-answer.js';

/** Options of {@link startMockUpstream}: where to listen plus the default behaviour. */
export interface MockUpstreamOptions extends Partial<MockBehaviour> {
  /** Listen port; 0 (default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /**
   * Answers OpenAI chat in process, before `answers` and `judgePrefers`: the text for a request
   * body and model, or undefined for the usual answer (a simulation answering per prompt).
   */
  script?: ChatScript;
}

/** The last request the mock received, for tests that assert what a gateway sent upstream. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The raw query string, `''` when there is none. */
  query: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** Request counters since start (or the last `resetStats()`). */
export interface MockUpstreamStats {
  total: number;
  /** Requests per path without query, e.g. `{"/v1/chat/completions": 12}`. */
  byPath: Record<string, number>;
  /** Requests that got a fault. */
  faults: number;
  lastRequest: RecordedRequest | undefined;
}

/** A running mock upstream. */
export interface MockUpstream {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:9100` (append `/v1`). */
  url: string;
  port: number;
  stats(): MockUpstreamStats;
  resetStats(): void;
  /** Change the default behaviour of later requests; also resets fail-first counters. */
  configure(partial: Partial<MockBehaviour>): void;
  /** Stop listening and cut every open connection (including held `timeout` requests). */
  close(): Promise<void>;
}

function emptyStats(): MockUpstreamStats {
  return { total: 0, byPath: {}, faults: 0, lastRequest: undefined };
}

/**
 * Start the mock upstream: OpenAI chat/embeddings/audio/images and the Realtime WebSocket,
 * Anthropic messages, Gemini generateContent, Deepgram listen/speak and ElevenLabs
 * text-to-speech/speech-to-text on plain `node:http`, with latency, pacing and faults from
 * `options` or `x-mock-*` headers.
 */
export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const { port = 0, host = '127.0.0.1', script, ...behaviour } = options;
  let defaults: MockBehaviour = { ...DEFAULT_BEHAVIOUR, ...behaviour };
  let stats = emptyStats();
  const counters: FailCounters = new Map();
  const promptCache = new PromptCache();
  const pending = new Set<NodeJS.Timeout>();
  const nonce = randomBytes(3).toString('hex');
  let seq = 0;
  const timers: Timers = {
    later(fn, ms) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        fn();
      }, ms);
      pending.add(timer);
    },
  };
  const configure = (partial: Partial<MockBehaviour>): void => {
    defaults = { ...defaults, ...partial };
    counters.clear();
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer, form?: Record<string, unknown>): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    const id = `${nonce}${(++seq).toString(36)}`;
    if (req.method === 'GET') {
      handleGet(path, res, stats, defaults.models);
      return;
    }
    if (path === '/__mock/configure' && req.method === 'POST') {
      configure(behaviourFromJson(asRecord(parseBody(raw)) ?? {}));
      res.writeHead(204).end();
      return;
    }
    stats.total++;
    stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
    const route = req.method === 'POST' ? matchRoute(path, query) : undefined;
    const dialect = route?.dialect ?? dialectOf(path);
    const plan = planRequest(defaults, req.headers, counters);
    if (typeof plan === 'string') {
      writeAnswer(res, invalidRequest(dialect, plan, id), NO_DELAY, timers);
      return;
    }
    const body = route?.body === 'audio' ? { bytes: raw.length, content_type: req.headers['content-type'] ?? null } : (form ?? parseBody(raw));
    stats.lastRequest = { method: req.method ?? 'POST', path, query, headers: req.headers, body };
    if (!route) {
      writeAnswer(res, notFound(dialect, path, id), NO_DELAY, timers);
      return;
    }
    const record = asRecord(body);
    const served = defaults.models;
    if (served && dialect === 'openai' && typeof record?.['model'] === 'string' && !served.includes(record['model'])) {
      writeAnswer(res, unknownModel(record['model'], id), NO_DELAY, timers);
      return;
    }
    if (plan.fault) stats.faults++;
    if (plan.fault === 'timeout') return; // held until the client gives up or close()
    const delivery = { latencyMs: plan.latencyMs, tokensPerSecond: plan.tokensPerSecond, drop: false };
    if (plan.fault && isStatusFault(plan.fault)) {
      writeAnswer(res, faultAnswer(dialect, plan.fault, id, plan.retryAfterSeconds), delivery, timers);
      return;
    }
    const answer = record
      ? route.answer(record, {
          id,
          created: Math.floor(Date.now() / 1000),
          promptTokens: estimateTokens(raw.length),
          tokens: plan.tokens,
          origin: `http://${req.headers.host ?? `${host}:${port}`}`,
          query: new URLSearchParams(query),
          promptCache,
          parallelToolCalls: defaults.parallelToolCalls,
          answers: defaults.answers,
          judgePrefers: defaults.judgePrefers,
          script,
        })
      : invalidRequest(dialect, 'We could not parse the JSON body of your request.', id);
    delivery.drop = plan.fault === 'drop-mid-stream';
    writeAnswer(res, answer, delivery, timers);
  };

  /** A native batch's line, answered by the interactive route of its `url` (never streamed). */
  const answerLine = (url: string, body: Record<string, unknown>): LineAnswer => {
    const id = `${nonce}${(++seq).toString(36)}`;
    const route = matchRoute(url, '');
    const raw = JSON.stringify(body);
    const context = { id, created: Math.floor(Date.now() / 1000), promptTokens: estimateTokens(raw.length), tokens: defaults.tokens, origin: `http://${host}:${port}`, query: new URLSearchParams(), promptCache, parallelToolCalls: defaults.parallelToolCalls, answers: defaults.answers, judgePrefers: defaults.judgePrefers, script };
    const model = body['model'];
    // A native batch's line names a model this upstream does not serve: that line's 404 (`models` behaviour).
    const unknown = route && defaults.models && typeof model === 'string' && !defaults.models.includes(model);
    const answer = !route ? notFound('openai', url, id) : unknown ? unknownModel(model, id, route.dialect) : route.answer({ ...body, stream: false }, context);
    if (answer.kind !== 'json') return { status: 500, body: { error: { message: 'streamed' } }, requestId: `req_${id}` };
    return { status: answer.status, body: JSON.parse(answer.body) as unknown, requestId: `req_${id}` };
  };
  const openaiBatches = new OpenAIBatches(() => defaults.batchPolls, answerLine);
  const anthropicBatches = new AnthropicBatches(() => defaults.batchPolls, answerLine);
  /** Files and native batches, which read their own bodies (a file upload keeps its bytes). */
  const handleBatches = async (req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer): Promise<void> => {
    stats.total++;
    stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
    const method = req.method ?? 'GET';
    stats.lastRequest = { method, path, query: '', headers: req.headers, body: undefined };
    // A provider's batches belong to the key (its project) that created them, as upstream: another key's calls answer 404.
    const owner = String(req.headers.authorization ?? req.headers['x-api-key'] ?? '');
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const answer = AnthropicBatches.handles(path)
      ? anthropicBatches.handle({ method, path, raw, owner, query }, `http://${req.headers.host ?? `${host}:${port}`}`)
      : await openaiBatches.handle({ method, path, raw, owner, query }, req.headers['content-type'] ?? '');
    const created = method === 'POST' && (path === '/v1/batches' || path === '/v1/messages/batches') && answer.status === 200;
    if (created && defaults.batchCreateDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, defaults.batchCreateDelayMs));
    if (created && defaults.loseBatchCreates > 0) {
      defaults.loseBatchCreates--;
      return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'mock: the batch was created, its answer lost', type: 'server_error' } }));
    }
    res.writeHead(answer.status, answer.headers).end(answer.body);
  };

  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (OpenAIBatches.handles(path) || AnthropicBatches.handles(path)) return void handleBatches(req, res, path, raw);
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('multipart/form-data')) return handle(req, res, raw);
      // Multipart bodies are parsed into a record (files as their name, type and size).
      void readMultipart(raw, type).then((form) => handle(req, res, raw, form));
    });
    req.on('error', () => res.destroy());
  });
  // The OpenAI Realtime WebSocket (`/v1/realtime?model=`), with the same faults and stats.
  const upgraded = new Set<Duplex>();
  const realtime = createRealtimeHandler({
    plan: (req) => planRequest(defaults, req.headers, counters),
    onRequest: (req, path) => {
      stats.total++;
      stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      stats.lastRequest = { method: req.method ?? 'GET', path, query: q < 0 ? '' : url.slice(q + 1), headers: req.headers, body: undefined };
    },
    later: timers.later,
    nextId: () => `${nonce}${(++seq).toString(36)}`,
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!REALTIME_PATHS.has(path)) {
      const answer = notFound('openai', path, 'upgrade');
      socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`);
      return;
    }
    realtime.handle(req, socket, head, path, q < 0 ? '' : url.slice(q + 1));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    stats: () => ({ ...stats, byPath: { ...stats.byPath } }),
    resetStats: () => {
      stats = emptyStats();
    },
    configure,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        // Realtime sockets are no longer the HTTP server's: cut them here.
        for (const socket of upgraded) socket.destroy();
        realtime.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const NO_DELAY = { latencyMs: 0, tokensPerSecond: 0, drop: false };

/**
 * A multipart body as a record: text fields as strings, files as `{filename, type, size}`;
 * undefined when it does not parse (the route then answers 400).
 */
async function readMultipart(raw: Buffer, contentType: string): Promise<Record<string, unknown> | undefined> {
  try {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const out: Record<string, unknown> = {};
    for (const [name, value] of form) out[name] = typeof value === 'string' ? value : { filename: value.name, type: value.type, size: value.size };
    return out;
  } catch {
    return undefined;
  }
}

function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** `GET /v1/models`: the `models` behaviour, or a fixed list when it is unset. */
function modelsBody(models: readonly string[] = ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small']): string {
  return JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'mock' })) });
}

const MOCK_IMAGE_PATH = /^\/v1\/images\/mock\/([0-9a-f]{6})\.png$/;

/** GET routes; `GET /v1/models` (or `/models`) is counted in `byPath` (not in `total`), so tests can see a discovery read. */
function handleGet(path: string, res: ServerResponse, stats: MockUpstreamStats, models: readonly string[] | undefined): void {
  if (path === '/v1/models' || path === '/models') stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
  const colour = parseColour(MOCK_IMAGE_PATH.exec(path)?.[1] ?? '');
  if (colour) {
    const png = solidPng(colour);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
    return;
  }
  const answer =
    path === '/health'
      ? jsonAnswer(200, '{"status":"ok"}')
      : path === '/v1/models' || path === '/models'
        ? jsonAnswer(200, modelsBody(models))
        : path === '/__mock/stats'
          ? jsonAnswer(200, JSON.stringify({ ...stats, lastRequest: undefined }))
          : notFound(dialectOf(path), path, 'get');
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
