import { connect, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from './e2e/harness.js';
import type { Started } from './start.js';

/** A port the OS had free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts a TCP connection on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('start', () => {
  let started: Started | undefined;
  afterEach(async () => {
    await started?.stop();
    started = undefined;
  });

  it('runs beforeListen once the runtime is built and before any port opens', async () => {
    const port = await freePort();
    const seen: boolean[] = [];
    started = await startGateway({ PORT: String(port) }, { beforeListen: async () => void seen.push(await accepts(port)) });
    expect(seen).toEqual([false]);
    expect(await accepts(port)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });
});
