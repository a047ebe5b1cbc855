import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runProbe } from './interactive-probe.js';

let server: Server | undefined;
afterEach(() => server?.close());

/** A stand-in gateway: answers every request after `delayMs` with `status`, recording the bodies. */
async function gateway(status: number, delayMs: number, bodies: string[]): Promise<string> {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      setTimeout(() => response.writeHead(status, { 'content-type': 'application/json' }).end('{}'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const stopAfter = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runProbe', () => {
  it('sends on schedule, each prompt unique, and waits for the answers in flight', async () => {
    const bodies: string[] = [];
    const url = await gateway(200, 120, bodies);
    const result = await runProbe({ url, key: 'k', model: 'm', rps: 50, mode: 'proxy' }, stopAfter(300));
    expect(result.failed).toBe(0);
    // An open loop: answers slower than the interval do not lower the rate (~15 sent in 300 ms).
    expect(result.latency.count).toBeGreaterThanOrEqual(10);
    expect(result.latency.p50).toBeGreaterThanOrEqual(120);
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('counts refused answers as failed, not as latencies', async () => {
    const url = await gateway(429, 0, []);
    const result = await runProbe({ url, key: 'k', model: 'm', rps: 50, mode: 'proxy' }, stopAfter(100));
    expect(result.latency.count).toBe(0);
    expect(result.failed).toBeGreaterThan(0);
  });
});
