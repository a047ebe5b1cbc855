import { fileURLToPath } from 'node:url';
import type { ChildSet } from './children.js';
import { chatBody, type TargetStart } from './target.js';
import { freePort, readyOrStop } from './wait-ready.js';

/**
 * Start the Node.js floor (`dist/floor-proxy.js`: node:http, JSON.parse + JSON.stringify, an undici
 * Pool to the mock) with the same Node as every other target, on the gateway CPUs.
 */
export async function startFloor(children: ChildSet, options: { mockUrl: string; cpus?: string }): Promise<TargetStart> {
  const port = await freePort();
  const child = await children.spawn({
    name: 'floor',
    command: process.execPath,
    args: [fileURLToPath(new URL('./floor-proxy.js', import.meta.url)), '--port', String(port), '--upstream', options.mockUrl],
    cpus: options.cpus,
    gateway: { label: 'floor', shippedDefaults: false },
  });
  const base = `http://127.0.0.1:${port}`;
  // It answers anything but a POST with 404 itself: that answer means it listens.
  const notReady = await readyOrStop(children, child, { url: `${base}/`, timeoutMs: 10_000, status: 404 });
  if (notReady) return { ok: false, reason: notReady };
  return {
    ok: true,
    target: {
      name: 'floor',
      url: `${base}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer mock' },
      body: (stream) => chatBody('gpt-4o-mini', stream),
      pid: child.pid,
    },
  };
}
