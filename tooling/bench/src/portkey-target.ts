import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildSet } from './children.js';
import { chatBody, type TargetStart } from './target.js';
import { freePort, waitForHttp } from './wait-ready.js';

/** Where the installed `@portkey-ai/gateway` lives and which version it is. */
export interface PortkeyInstall {
  dir: string;
  version: string;
  /** The prebuilt Node entry the npm package ships (`build/start-server.js`). */
  script: string;
}

/** Locate the installed Portkey gateway; `undefined` when it is not installed. */
export function findPortkey(): PortkeyInstall | undefined {
  try {
    const pkgPath = createRequire(import.meta.url).resolve('@portkey-ai/gateway/package.json');
    const dir = dirname(pkgPath);
    const { version } = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string };
    return { dir, version, script: join(dir, 'build/start-server.js') };
  } catch {
    return undefined;
  }
}

/** The preload that lets Portkey 1.15.2 stream on Node (see portkey-fetch-shim.ts). */
export const FETCH_SHIM_NOTE =
  'Portkey 1.15.2 as installed from npm answers every streaming request with 500 on Node ("TypeError: immutable" when it appends x-portkey-* headers to the upstream fetch Response; Portkey-AI/gateway#1389, #1550). Its stream runs use a separate Portkey process with a preloaded shim (`--import dist/portkey-fetch-shim.js`) that re-wraps upstream responses with mutable headers; the shim\'s cost is charged to Portkey. Its JSON runs use the package unmodified.';

/**
 * Start Portkey's open-source gateway (`node build/start-server.js --port=N --headless`, the
 * prebuilt bundle the npm package ships; its only postinstall is patch-package, nothing to build).
 * Requests route to the mock with `x-portkey-provider: openai` and `x-portkey-custom-host`.
 * `fetchShim` preloads the fix that streaming needs on Node.
 */
export async function startPortkey(
  children: ChildSet,
  options: { mockUrl: string; cpus?: string; fetchShim?: boolean },
): Promise<TargetStart> {
  const install = findPortkey();
  if (!install) return { ok: false, reason: '@portkey-ai/gateway is not installed (pnpm install)' };
  if (!existsSync(install.script)) {
    return { ok: false, reason: `${install.script} missing: the package ships no prebuilt server` };
  }
  const port = await freePort();
  const child = await children.spawn({
    name: options.fetchShim ? 'portkey (stream shim)' : 'portkey',
    command: process.execPath,
    args: [
      ...(options.fetchShim
        ? ['--import', fileURLToPath(new URL('./portkey-fetch-shim.js', import.meta.url))]
        : []),
      install.script,
      `--port=${port}`,
      '--headless',
    ],
    cwd: install.dir,
    cpus: options.cpus,
  });
  const base = `http://127.0.0.1:${port}`;
  const notReady = await waitForHttp(`${base}/`, child, 30_000);
  if (notReady) {
    await children.stop(child);
    return { ok: false, reason: notReady };
  }
  return {
    ok: true,
    target: {
      name: 'portkey',
      url: `${base}/v1/chat/completions`,
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer mock',
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': `${options.mockUrl}/v1`,
      },
      body: (stream) => chatBody('gpt-4o-mini', stream),
      pid: child.pid,
    },
  };
}
