import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { createProviderRegistry } from '../registry.js';
import { REDACTED } from './scrub-secrets.js';

const platformKey = 'sk-platform-realtime-0123456789';
const poolKey = 'sk-pool-realtime-second-abcdef';
const byokKey = 'sk-byok-pinned-realtime-9999';

/**
 * A realtime upstream that echoes the key it was sent (and every platform key) in an error
 * event, a binary frame, and its close reason: the worst case of a proxy in front of a vendor.
 */
let server: WebSocketServer;
let base = '';
beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (ws, req) => {
    const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    ws.send(JSON.stringify({ type: 'error', error: { message: `Incorrect API key provided: ${sent} (pool: ${platformKey} ${poolKey})` } }));
    ws.send(Buffer.from(`binary ${sent}`), { binary: true });
    ws.on('message', () => ws.close(4001, `bad key ${sent}`.slice(0, 120)));
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function session(apiKey?: string): Promise<{ texts: string[]; binary: string[]; close: { code: number; reason: string } }> {
  const registry = createProviderRegistry({ openai: { apiKeys: [platformKey, poolKey], baseUrl: base } });
  const provider = registry.get('openai');
  if (!provider?.realtime) throw new Error('openai has no realtime');
  const socket: WebSocket = await provider.realtime({ model: 'gpt-4o-realtime-preview' }, apiKey === undefined ? {} : { apiKey });
  const texts: string[] = [];
  const binary: string[] = [];
  const close = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  socket.on('message', (data, isBinary) => {
    (isBinary ? binary : texts).push(String(data));
    if (texts.length === 1 && binary.length === 1) socket.send('{"type":"session.update"}');
  });
  socket.resume();
  return { texts, binary, close: await close };
}

describe('realtime sessions scrub upstream secrets', () => {
  it('from every text message and the close reason, for the platform keys', async () => {
    const { texts, close } = await session();
    expect(texts).toHaveLength(1);
    for (const text of [...texts, close.reason]) {
      expect(text).toContain(REDACTED);
      expect(text).not.toContain(platformKey);
      expect(text).not.toContain(poolKey);
    }
    expect(close.code).toBe(4001);
    // The event stays the JSON it was: only the secret is replaced.
    expect(JSON.parse(texts[0] ?? '')).toMatchObject({ type: 'error' });
  });

  it('for a key pinned by the call (BYOK), and leaves binary frames as they are', async () => {
    const { texts, binary, close } = await session(byokKey);
    expect(texts[0]).not.toContain(byokKey);
    expect(close.reason).toBe(`bad key ${REDACTED}`);
    expect(binary).toEqual([`binary ${byokKey}`]);
  });
});
