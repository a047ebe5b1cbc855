import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { masterKey, startGateway } from '../harness.js';
import { openSocket } from '../realtime-kit.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const platformKey = 'sk-platform-realtime-echoed-0123456789';

/**
 * Issue 20, finding 1 on the realtime WebSocket: an upstream (or a proxy before it) that echoes
 * the platform key in a session's error event and close reason. Nothing the client receives
 * holds the key.
 */
describe('realtime sessions never pass the platform key to a client', () => {
  let upstream: WebSocketServer;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    upstream.on('connection', (ws, req) => {
      const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      ws.send(JSON.stringify({ type: 'session.created', event_id: 'event_1', session: { id: 'sess_1', object: 'realtime.session', model: 'gpt-realtime' } }));
      ws.send(JSON.stringify({ type: 'error', event_id: 'event_2', error: { type: 'invalid_request_error', code: 'invalid_api_key', message: `Incorrect API key provided: ${sent}`, param: null } }));
      ws.on('message', () => ws.close(4001, `key ${sent} revoked`));
    });
    await new Promise<void>((resolve) => upstream.once('listening', () => resolve()));
    gateway = await startGateway({ OPENAI_API_KEY: platformKey, OPENAI_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1` });
  });
  afterAll(async () => {
    await gateway?.stop();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('scrubs the key from the upstream error event and its close reason', async () => {
    const client = openSocket(`${gateway.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${masterKey}` } });
    await client.opened;
    const error = await client.waitFor('error');
    expect(JSON.stringify(error)).not.toContain(platformKey);
    expect(JSON.stringify(error)).toContain('[redacted]');
    client.send({ type: 'session.update', session: {} });
    const closed = await client.closed;
    expect(closed.code).toBe(4001);
    expect(closed.reason).toBe('key [redacted] revoked');
    expect(JSON.stringify(client.events)).not.toContain(platformKey);
  });
});
