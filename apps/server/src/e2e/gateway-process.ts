import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The server's entry point, run from source by e2e tests that start a real gateway process. */
export const main = fileURLToPath(new URL('../main.ts', import.meta.url));
/** The server app's folder (the child's working directory). */
export const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** A TCP port nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `url/health` answers 200; rejects when the child exits first or after `tries` x 100 ms. */
export async function waitHealthy(url: string, child: ChildProcess, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gateway did not become healthy');
}
