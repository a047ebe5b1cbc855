import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildSet } from './children.js';
import { chatBody, type TargetStart } from './target.js';
import { freePort, waitForHttp } from './wait-ready.js';

/**
 * Start the svc gateway (`node apps/server/dist/main.js`) with the operator contract of DESIGN §3:
 * a temp `SVC_DATA_DIR`, a bench master key and OpenAI pointed at the mock; wait for `/ready`.
 */
export async function startSvc(
  children: ChildSet,
  options: { root: string; mockUrl: string; cpus?: string; readyTimeoutMs?: number },
): Promise<TargetStart> {
  const script = join(options.root, 'apps/server/dist/main.js');
  if (!existsSync(script)) {
    return {
      ok: false,
      reason: `${script} does not exist (build it: npx turbo run build --filter=@svc/server...)`,
    };
  }
  const [port, controlPort] = [await freePort(), await freePort()];
  const masterKey = `sk-svc-bench-${randomBytes(16).toString('hex')}`;
  const child = await children.spawn({
    name: 'svc',
    command: process.execPath,
    args: [script],
    cwd: options.root,
    cpus: options.cpus,
    env: {
      ...process.env,
      PORT: String(port),
      CONTROL_PORT: String(controlPort),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
      SVC_MASTER_KEY: masterKey,
      OPENAI_API_KEY: 'mock',
      OPENAI_BASE_URL: `${options.mockUrl}/v1`,
      LOG_LEVEL: 'warn',
      SVC_MOCK_PROVIDER: '0',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const notReady = await waitForHttp(`${base}/ready`, child, options.readyTimeoutMs ?? 60_000);
  if (notReady) {
    await children.stop(child);
    return { ok: false, reason: notReady };
  }
  return {
    ok: true,
    target: {
      name: 'svc',
      url: `${base}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${masterKey}` },
      body: (stream) => chatBody('openai/gpt-4o-mini', stream),
      pid: child.pid,
    },
  };
}
