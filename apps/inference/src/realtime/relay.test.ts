import type { AddressInfo } from 'node:net';
import { createCatalog } from '@svc/catalog';
import type { Caller } from '@svc/core';
import { type UsageEvent, openRealtimeSession } from '@svc/pipeline';
import type { Provider, RealtimeSocket } from '@svc/providers';
import { createLogger, createMetrics } from '@svc/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { relay } from './relay.js';

const caller: Caller = {
  keyId: 'key_1',
  keyPrefix: 'sk-svc-x',
  scopes: new Set(['inference:audio']),
  org: { id: 'org_1', name: 'o', plan: 'free', rpmLimit: null, tpmLimit: null, monthlyBudgetUsd: null, tokenQuota: null, defaultIntelligenceMode: null, createdAt: new Date() },
};
const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

function listen(): Promise<{ server: WebSocketServer; url: string }> {
  return new Promise((resolve) => {
    const server: WebSocketServer = new WebSocketServer({ port: 0, host: '127.0.0.1' }, (): void => {
      resolve({ server, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
    servers.push(server);
  });
}

/**
 * A client, the gateway's relay and an upstream, all real sockets on loopback: `peer` is the
 * upstream's end of the session, `client` the caller's.
 */
async function wire(options: { heartbeatMs?: number; autoPong?: boolean } = {}) {
  const upstream = await listen();
  const peerReady = new Promise<WebSocket>((resolve) => upstream.server.once('connection', resolve));
  const provider: Provider = {
    id: 'openai',
    chat: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    realtime: () =>
      new Promise<RealtimeSocket>((resolve) => {
        const ws = new WebSocket(upstream.url);
        ws.once('open', () => {
          ws.pause();
          resolve(ws);
        });
      }),
  };
  const rows: UsageEvent[] = [];
  const session = await openRealtimeSession(
    {
      catalog: createCatalog().forProviders(new Set(['openai'])),
      providers: { get: (id) => (id === 'openai' ? provider : undefined) },
      learn: { recordUsage: (row) => rows.push(row) },
      metrics: createMetrics({ defaultMetrics: false }),
      platformFeePerMinute: 0.002,
    },
    { beta: false },
    { caller, requestId: 'req_relay', startedAt: performance.now(), signal: new AbortController().signal, mode: 'full' },
  );
  const peer = await peerReady;
  const gateway = await listen();
  const relayed = new Promise<ReturnType<typeof relay>>((resolve) =>
    gateway.server.once('connection', (socket) => resolve(relay(socket, session, { deadlineMs: 60_000, heartbeatMs: options.heartbeatMs ?? 30_000, logger: createLogger({ level: 'silent' }) }))),
  );
  const client = new WebSocket(gateway.url, { autoPong: options.autoPong ?? true });
  await new Promise((resolve) => client.once('open', resolve));
  return { client, peer, session, rows, relayed: await relayed };
}

function collect(ws: WebSocket): Array<{ data: Buffer; binary: boolean }> {
  const got: Array<{ data: Buffer; binary: boolean }> = [];
  ws.on('message', (data: RawData, binary) => got.push({ data: data as Buffer, binary }));
  return got;
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('relay', () => {
  it('passes text and binary frames both ways, in order, as they are', async () => {
    const { client, peer } = await wire();
    const atPeer = collect(peer);
    const atClient = collect(client);
    client.send('{"type":"session.update"}');
    client.send(Buffer.from([1, 2, 3]));
    peer.send(Buffer.from([9, 8]));
    peer.send('{"type":"session.updated"}');
    await until(() => atPeer.length === 2 && atClient.length === 2);
    expect(atPeer.map((m) => [m.binary, [...m.data]])).toEqual([
      [false, [...Buffer.from('{"type":"session.update"}')]],
      [true, [1, 2, 3]],
    ]);
    expect(atClient.map((m) => [m.binary, m.binary ? [...m.data] : String(m.data)])).toEqual([
      [true, [9, 8]],
      [false, '{"type":"session.updated"}'],
    ]);
  });

  it('meters usage from response.done and closes the upstream when the client leaves, billing once', async () => {
    const { client, peer, rows, relayed } = await wire();
    peer.send(JSON.stringify({ type: 'response.done', response: { usage: { input_tokens: 10, output_tokens: 5 } } }));
    await new Promise((resolve) => client.once('message', resolve));
    const peerClosed = new Promise<number>((resolve) => peer.once('close', resolve));
    client.close(1000, 'bye');
    expect(await peerClosed).toBe(1000);
    await relayed.done;
    // The first minute was written when the session opened; the end writes the session's own row once.
    expect(rows.map((row) => row.requestId)).toEqual(['req_relay:minute-1', 'req_relay']);
    expect(rows[1]).toMatchObject({ requestId: 'req_relay', promptTokens: 10, completionTokens: 5, status: 101 });
  });

  it('holds the upstream back while the client cannot keep up, and resumes it when the client drains', async () => {
    const { client, peer, session } = await wire();
    let received = 0;
    client.on('message', () => received++);
    // The client stops reading: its TCP window fills, then the gateway's send buffer.
    client.pause();
    const frame = Buffer.alloc(256 * 1024, 7);
    for (let i = 0; i < 64; i++) peer.send(frame, { binary: true });
    await until(() => session.upstream.isPaused);
    client.resume();
    await until(() => received === 64, 10_000);
    await until(() => !session.upstream.isPaused);
  });

  it('cuts a client that stops answering pings, and bills its session', async () => {
    const { rows, relayed } = await wire({ heartbeatMs: 50, autoPong: false });
    await relayed.done;
    expect(rows.map((row) => row.requestId)).toEqual(['req_relay:minute-1', 'req_relay']);
  });

  it('passes the upstream close code and reason on to the client', async () => {
    const { client, peer, rows, session } = await wire();
    const closed = new Promise<[number, string]>((resolve) => client.once('close', (code, reason) => resolve([code, String(reason)])));
    peer.close(4000, 'session expired');
    expect(await closed).toEqual([4000, 'session expired']);
    expect(rows.map((row) => row.requestId)).toEqual(['req_relay:minute-1', 'req_relay']);
    expect(session.ended).toBe(true);
  });
});
