import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildSet } from './children.js';
import { chatBody, type TargetStart } from './target.js';
import { freePort, readyOrStop } from './wait-ready.js';

/** Where the installed `@portkey-ai/gateway` lives and which version it is. */
export interface PortkeyInstall {
  dir: string;
  version: string;
  /** The prebuilt Node entry the npm package ships (`build/start-server.js`). */
  script: string;
}

/** The peer gateway the bench compares with, pinned: the figures in docs/benchmarks.md are of it. */
export const PORTKEY_VERSION = '1.15.2';

/**
 * Where the bench keeps its own install of the peer gateway: a cache folder, not a project
 * dependency, so `pnpm install` neither downloads it nor warns about its install script.
 */
export function portkeyCacheDir(root: string): string {
  return join(root, 'node_modules', '.cache', 'svc-bench', `portkey-${PORTKEY_VERSION}`);
}

/** Locate the bench's install of the Portkey gateway under `cacheDir`; `undefined` when absent. */
export function findPortkey(cacheDir: string): PortkeyInstall | undefined {
  const dir = join(cacheDir, 'node_modules', '@portkey-ai', 'gateway');
  try {
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    return { dir, version, script: join(dir, 'build/start-server.js') };
  } catch {
    return undefined;
  }
}

/**
 * Installs `@portkey-ai/gateway@PORTKEY_VERSION` into `cacheDir` with npm when it is not there
 * yet (the first `--only portkey` run needs the npm registry; later runs are offline).
 * `--ignore-scripts`: its only install script is patch-package, which the bench never needed.
 */
export function installPortkey(cacheDir: string, log: (line: string) => void): PortkeyInstall | { error: string } {
  const found = findPortkey(cacheDir);
  if (found?.version === PORTKEY_VERSION) return found;
  log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into ${cacheDir} (once)...`);
  mkdirSync(cacheDir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', cacheDir, `@portkey-ai/gateway@${PORTKEY_VERSION}`],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  const installed = findPortkey(cacheDir);
  if (result.status !== 0 || !installed) {
    const why = (result.stderr ?? '').trim().split('\n').at(-1) ?? result.error?.message ?? 'unknown error';
    return { error: `npm install @portkey-ai/gateway@${PORTKEY_VERSION} failed: ${why}` };
  }
  return installed;
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
  options: { install: PortkeyInstall; mockUrl: string; cpus?: string; fetchShim?: boolean },
): Promise<TargetStart> {
  const { install } = options;
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
    gateway: { label: options.fetchShim ? `portkey ${install.version} (stream shim)` : `portkey ${install.version}`, shippedDefaults: false },
  });
  const base = `http://127.0.0.1:${port}`;
  const notReady = await readyOrStop(children, child, { url: `${base}/`, timeoutMs: 30_000 });
  if (notReady) return { ok: false, reason: notReady };
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
