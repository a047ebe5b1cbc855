#!/usr/bin/env node
// Root postinstall: builds the gateway (JavaScript only, no type declarations) right after
// `pnpm install` and prepares the embedded store, so `pnpm start` on a fresh clone serves at
// once instead of compiling and running initdb first.
// Skipped in CI (CI=true), which runs `pnpm build` itself, and with SVC_SKIP_INSTALL_BUILD=1.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// biome-ignore lint/suspicious/noUndeclaredEnvVars: an install hook's switch, not an input of a turbo task
if (process.env.CI === 'true' || process.env.SVC_SKIP_INSTALL_BUILD === '1') {
  console.log('svc: build skipped at install (CI or SVC_SKIP_INSTALL_BUILD=1); pnpm start builds when it must');
  process.exit(0);
}
console.log('svc: building the gateway so that pnpm start serves at once (SVC_SKIP_INSTALL_BUILD=1 skips this)');
const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@svc/server...', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SVC_SKIP_DTS: '1' },
});
if (build.status !== 0) process.exit(build.status ?? 1);

// The embedded store's first start runs PGlite's initdb and every migration (seconds of WASM);
// done here, the first `pnpm start` only opens it. Not with DATABASE_URL: an install never
// touches a remote database. A failure is a note, not a failed install: start reports it again.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by an install hook, not by a turbo task
if (!process.env.DATABASE_URL) {
  const migrate = spawnSync(process.execPath, ['apps/server/dist/cli.js', 'migrate'], { cwd: root, stdio: 'inherit' });
  if (migrate.status !== 0) console.log('svc: the embedded store was not prepared at install; pnpm start will say why');
}
