import { createServer } from 'node:net';
import type { Child, ChildSet } from './children.js';

/** A free TCP port on 127.0.0.1 (bind to 0, read, release). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * {@link waitForHttp}; a child that is not ready is stopped. Resolves with the reason it was not,
 * if so; a ready gateway is first left alone to settle and its idle RSS read ({@link ChildSet.settled}).
 */
export async function readyOrStop(children: ChildSet, child: Child, probe: { url: string; timeoutMs: number; status?: number }): Promise<string | undefined> {
  const notReady = await waitForHttp(probe.url, child, probe.timeoutMs, probe.status);
  if (notReady) await children.stop(child);
  else await children.settled(child);
  return notReady;
}

/**
 * Poll `url` until it answers `status`, the child exits, or `timeoutMs` passes. Resolves with
 * `undefined` when ready, else with a one-line reason (including the child's last output).
 */
export async function waitForHttp(
  url: string,
  child: Child,
  timeoutMs: number,
  status = 200,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | string | undefined;
  void child.exited.then((code) => {
    exited = code;
  });
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      return `${child.name} exited (${exited}) before ${url} was ready: ${lastLines(child.output())}`;
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === status) return undefined;
      last = `status ${res.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return `${child.name} not ready at ${url} after ${timeoutMs} ms (${last}): ${lastLines(child.output())}`;
}

/** The last few non-empty lines of a process's output, joined on one line. */
export function lastLines(text: string, count = 3): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-count)
    .join(' | ');
}
