import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** An address of this machine that is not loopback, to call from "another host". */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

const port = (gateway: Gateway, name: string) => gateway.servers.find((s) => s.name === name)!.port;

// Issue 19: /metrics on the public inference port showed spend per model to anyone who reached it.
describe('who may read /metrics', () => {
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  });

  it.skipIf(!lanAddress)('without SVC_METRICS_TOKEN: loopback callers only, on both app ports', async () => {
    gateway = await startGateway({ HOST: '0.0.0.0' });
    for (const name of ['inference', 'control-plane']) {
      expect((await fetch(`http://127.0.0.1:${port(gateway, name)}/metrics`)).status, name).toBe(200);
      const remote = await fetch(`http://${lanAddress}:${port(gateway, name)}/metrics`);
      expect(remote.status, name).toBe(403);
      expect(((await remote.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('SVC_METRICS_TOKEN') });
    }
    // The probes stay open: load balancers call them from anywhere.
    expect((await fetch(`http://${lanAddress}:${port(gateway, 'inference')}/health`)).status).toBe(200);
  });

  it('with SVC_METRICS_TOKEN: the Bearer token from anyone, nothing without it', async () => {
    const token = 'metrics-token-0123456789';
    gateway = await startGateway({ SVC_METRICS_TOKEN: token, ...(lanAddress ? { HOST: '0.0.0.0' } : {}) });
    const base = `http://${lanAddress ?? '127.0.0.1'}:${port(gateway, 'inference')}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port(gateway, 'inference')}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('svc_requests_total');
  });

  it('METRICS_PORT: a listener of its own that serves /metrics and nothing else', async () => {
    gateway = await startGateway({ METRICS_PORT: '0', ...(lanAddress ? { HOST: '0.0.0.0' } : {}) });
    const base = `http://${lanAddress ?? '127.0.0.1'}:${port(gateway, 'metrics')}`;
    const scraped = await fetch(`${base}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    expect(await scraped.text()).toContain('svc_requests_total');
    expect((await fetch(`${base}/v1/models`)).status).toBe(404);
  });
});
