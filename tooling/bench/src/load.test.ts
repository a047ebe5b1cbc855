import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from './load.js';

const bodies: string[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => {
    bodies.push(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('runLoad', () => {
  it('sends a fresh body with every request when given nextBody', async () => {
    bodies.length = 0;
    let n = 0;
    const result = await runLoad({ url, headers: { 'content-type': 'application/json' }, body: '{"n":-1}', nextBody: () => `{"n":${n++}}`, connections: 2, durationSec: 1 });
    await sleep(200); // requests still in flight when the run stopped
    expect(result.ok).toBeGreaterThan(10);
    expect(bodies.length).toBeGreaterThanOrEqual(result.ok);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(bodies).not.toContain('{"n":-1}');
  });

  it('sends the same body every time without it', async () => {
    bodies.length = 0;
    await runLoad({ url, headers: { 'content-type': 'application/json' }, body: '{"n":1}', connections: 1, durationSec: 1 });
    expect(new Set(bodies)).toEqual(new Set(['{"n":1}']));
  });
});
