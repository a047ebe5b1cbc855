import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { requireScope } from '@svc/auth';
import { type GatewayError, invalidRequest, notFound, payloadTooLarge, randomId, toGatewayError } from '@svc/core';
import { type Exchange, type Gateway, resolveIntelligenceMode } from '@svc/pipeline';
import { ChatChunkEncoder, chatChunks, decodeChatRequest, encodeChatCompletion } from '@svc/protocol';
import type { Runtime } from '@svc/server';

/** Largest request body read (the gateway's own default is larger; an example keeps it small). */
const MAX_BODY_BYTES = 1 << 20;

/** What the server uses of the runtime: who is calling, and the chat pipeline. */
export type PipelineHost = { authenticator: Pick<Runtime['authenticator'], 'authenticate'>; gateway: Pick<Gateway, 'chat'> };

/**
 * `POST /v1/chat/completions` on a plain `node:http` server: the same pipeline as the gateway's
 * own app (routing, caches, memory, fallback, billing), with this server's HTTP in front of it.
 * Errors answer in OpenAI's shape `{error: {message, type, code, param}}`.
 */
export function createCustomServer(host: PipelineHost): Server {
  return createServer((req, res) => {
    handle(host, req, res).catch((error: unknown) => sendError(res, toGatewayError(error)));
  });
}

async function handle(host: PipelineHost, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') throw notFound(`No route ${req.method} ${req.url}.`);
  const caller = await host.authenticator.authenticate(bearerToken(req));
  requireScope(caller, 'inference:chat');
  const request = decodeChatRequest(await readJson(req));
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const exchange: Exchange = {
    caller,
    requestId: `req_${randomId(24)}`,
    startedAt: performance.now(),
    signal: abort.signal,
    mode: resolveIntelligenceMode(header(req, 'x-intelligence-mode'), request.svc?.intelligenceMode, caller.org.defaultIntelligenceMode),
  };
  const response = await host.gateway.chat(request, exchange);
  const id = `chatcmpl-${randomId(24)}`;
  const created = Math.floor(Date.now() / 1000);
  if (response.kind === 'json') {
    const { body } = encodeChatCompletion(response.result, { id, created, model: response.metadata.model ?? response.result.model, svcMetadata: response.metadata });
    res.writeHead(200, { ...response.headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  res.writeHead(200, { ...response.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const encoder = new ChatChunkEncoder({ id, created, model: response.model, includeUsage: request.includeUsage, n: request.n });
  for await (const chunk of chatChunks(encoder, response)) res.write(chunk);
  res.end();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bearerToken(req: IncomingMessage): string | undefined {
  const authorization = header(req, 'authorization');
  return authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) throw payloadTooLarge(MAX_BODY_BYTES);
    parts.push(part);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    throw invalidRequest('The request body is not valid JSON.', null, 'invalid_json');
  }
}

function sendError(res: ServerResponse, error: GatewayError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(error.status, { ...error.headers, 'content-type': 'application/json' }).end(JSON.stringify({ error: error.toBody() }));
}
