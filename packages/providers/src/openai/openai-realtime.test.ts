import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isProviderError } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createOpenAIProvider } from './openai-provider.js';
import { openAIRealtimeUrl } from './openai-realtime.js';

let server: Server;
let base: string;
const seen: IncomingMessage[] = [];
const sockets = new Set<Duplex>();

beforeAll(async () => {
  const wss = new WebSocketServer({ noServer: true });
  server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    seen.push(req);
    sockets.add(socket);
    const key = req.headers.authorization?.slice(7);
    if (key === 'limited') {
      socket.end('HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 7\r\nconnection: close\r\n\r\n{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}');
      return;
    }
    if (key === 'broken') {
      socket.end('HTTP/1.1 500 Internal Server Error\r\nconnection: close\r\n\r\n');
      return;
    }
    if (key === 'silent') return; // never answers the handshake
    wss.handleUpgrade(req, socket, head, (ws) => ws.send('{"type":"session.created"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  // Upgraded (or held) sockets are no longer the HTTP server's to close.
  for (const socket of sockets) socket.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('OpenAI realtime', () => {
  it('builds the ws(s) URL with the model', () => {
    expect(openAIRealtimeUrl('https://api.openai.com/v1', 'gpt-realtime')).toBe('wss://api.openai.com/v1/realtime?model=gpt-realtime');
    expect(openAIRealtimeUrl('http://127.0.0.1:9/v1', 'a b')).toBe('ws://127.0.0.1:9/v1/realtime?model=a+b');
  });

  it('opens the socket with the pool key and the beta header when the client asked for it', async () => {
    const provider = createOpenAIProvider({ apiKeys: ['good'], baseUrl: base });
    const socket = await provider.realtime!({ model: 'gpt-realtime', beta: true });
    const first = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.resume();
    expect(await first).toBe('{"type":"session.created"}');
    socket.close();
    const req = seen.at(-1)!;
    expect(req.url).toBe('/v1/realtime?model=gpt-realtime');
    expect(req.headers.authorization).toBe('Bearer good');
    expect(req.headers['openai-beta']).toBe('realtime=v1');
  });

  it('classifies a refused upgrade by status and body, with retry-after', async () => {
    const provider = createOpenAIProvider({ apiKeys: ['limited'], baseUrl: base });
    const error = await provider.realtime!({ model: 'gpt-realtime' }).catch((e: unknown) => e);
    expect(isProviderError(error) && { kind: error.kind, status: error.upstreamStatus, retryAfterMs: error.retryAfterMs }).toEqual({ kind: 'rate_limit', status: 429, retryAfterMs: 7000 });
    expect(seen.at(-1)?.headers['openai-beta']).toBeUndefined();
    const broken = await createOpenAIProvider({ apiKeys: ['broken'], baseUrl: base }).realtime!({ model: 'm' }).catch((e: unknown) => e);
    expect(isProviderError(broken) && broken.kind).toBe('server');
  });

  it('falls through to the next key of the pool when one is refused for its own limit', async () => {
    const { createProviderRegistry } = await import('../registry.js');
    const registry = createProviderRegistry({ openai: { apiKeys: ['limited', 'good'], baseUrl: base } });
    const socket = await registry.get('openai')!.realtime!({ model: 'gpt-realtime' });
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer good');
    socket.close();
  });

  it('times out a handshake that never completes, and reports an unreachable upstream as network', async () => {
    const silent = createOpenAIProvider({ apiKeys: ['silent'], baseUrl: base });
    const timeout = await silent.realtime!({ model: 'm' }, { handshakeTimeoutMs: 100 }).catch((e: unknown) => e);
    expect(isProviderError(timeout) && timeout.kind).toBe('timeout');
    const aborted = await silent.realtime!({ model: 'm' }, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect(isProviderError(aborted) && aborted.kind).toBe('timeout');
    const nowhere = createOpenAIProvider({ apiKeys: ['k'], baseUrl: 'http://127.0.0.1:1/v1' });
    const network = await nowhere.realtime!({ model: 'm' }).catch((e: unknown) => e);
    expect(isProviderError(network) && network.kind).toBe('network');
  });
});
