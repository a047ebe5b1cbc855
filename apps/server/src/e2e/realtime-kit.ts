import { readFileSync } from 'node:fs';
import { type Server, connect } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '../runtime/runtime.js';
import { WebSocket } from 'ws';

const fixtures = new URL('./__fixtures__/', import.meta.url);
/** The test certificate's PEM (self-signed for 127.0.0.1): pass it as `ca` to trust the terminator. */
export const testCa = readFileSync(new URL('tls-test.crt', fixtures));

/**
 * A TLS terminator in front of the gateway, as a load balancer would be: the openai SDK's
 * realtime client always connects with `wss://`. Returns its `https://` base URL.
 */
export async function startTlsTerminator(targetPort: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<{ destroy(): void }>();
  const server: Server = createTlsServer({ key: readFileSync(new URL('tls-test.key', fixtures)), cert: testCa }, (secure) => {
    const plain = connect(targetPort, '127.0.0.1');
    sockets.add(secure).add(plain);
    secure.pipe(plain).pipe(secure);
    const cut = () => {
      secure.destroy();
      plain.destroy();
    };
    secure.on('error', cut).on('close', cut);
    plain.on('error', cut).on('close', cut);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export type RealtimeEvent = { type: string } & Record<string, unknown>;

/** Waits until `events` holds one of `type` (polling; rejects when `closed()` says the socket is gone first). */
export function waitForEvent(events: readonly RealtimeEvent[], type: string, closed: () => boolean, timeoutMs = 5_000): Promise<RealtimeEvent> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = events.find((e) => e.type === type);
      if (found) resolve(found);
      else if (closed()) reject(new Error(`socket closed before ${type}; got ${events.map((e) => e.type).join(', ')}`));
      else if (Date.now() - started > timeoutMs) reject(new Error(`no ${type} within ${timeoutMs} ms; got ${events.map((e) => e.type).join(', ')}`));
      else setTimeout(check, 5);
    };
    check();
  });
}

/** A plain `ws` client on the gateway (ws://), collecting events, its close code and the 101's headers. */
export function openSocket(url: string, options: { headers?: Record<string, string>; protocols?: readonly string[] } = {}) {
  const ws = new WebSocket(url, [...(options.protocols ?? [])], { headers: options.headers ?? {} });
  const events: RealtimeEvent[] = [];
  let upgradeHeaders: Record<string, string | string[] | undefined> = {};
  ws.on('upgrade', (res) => {
    upgradeHeaders = res.headers;
  });
  ws.on('message', (data) => events.push(JSON.parse(String(data)) as RealtimeEvent));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    events,
    opened,
    closed,
    headers: () => upgradeHeaders,
    send: (event: Record<string, unknown>) => ws.send(JSON.stringify(event)),
    waitFor: (type: string) => waitForEvent(events, type, () => ws.readyState === ws.CLOSED),
  };
}

/** An upgrade the gateway refuses: its HTTP status, headers and JSON body. */
export function refusal(url: string, options: { headers?: Record<string, string>; protocols?: readonly string[] } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: { error: { type: string; code: string; param: string | null } } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [...(options.protocols ?? [])], { headers: options.headers ?? {} });
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.on('error', () => {});
    ws.once('unexpected-response', (req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as never });
      });
    });
  });
}

/** The ledger rows of one session, named by the 101's `x-svc-org-id` and `x-svc-request-id` (after flushing `learn`, when given). */
export async function sessionRows(runtime: { db: Pick<Runtime['db'], 'usage'>; learn?: Pick<Runtime['learn'], 'flush'> }, headers: Record<string, unknown>) {
  await runtime.learn?.flush();
  const rows = await runtime.db.usage.listByOrg(String(headers['x-svc-org-id']), { limit: 50 });
  const id = String(headers['x-svc-request-id']);
  // The session's own row first, then its minute rows (`<id>:minute-<n>`).
  return rows.filter((row) => row.requestId === id || row.requestId.startsWith(`${id}:`)).sort((a, b) => (a.requestId < b.requestId ? -1 : 1));
}
