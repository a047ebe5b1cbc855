#!/usr/bin/env node
// `pnpm start`, `pnpm svc` and `pnpm bench` run the built output at once when it is current
// (`pnpm install` builds it), and build first only when a package's sources are newer than its
// `dist/`, so a fresh clone never compiles at start and an edited one never runs stale code.
// Usage: node scripts/ensure-built.mjs @svc/server [@svc/bench]   (turbo filters, with `...`)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const targets = process.argv.slice(2);
const groups = ['packages', 'apps', ...(targets.includes('@svc/bench') ? ['tooling'] : [])];

/** Newest modification time under `path` (0 when absent); tests are not part of a build. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isFile() && /\.test\.tsx?$/.test(entry.name)) continue;
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

const stale = [];
for (const group of groups) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    if (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'src'))) continue;
    const built = newest(join(dir, 'dist'));
    const sources = Math.max(newest(join(dir, 'src')), newest(join(dir, 'package.json')), newest(join(dir, 'tsup.config.ts')));
    if (built === 0 || sources > built) stale.push(`${group}/${name}`);
  }
}
if (stale.length === 0) process.exit(0);

console.error(`svc: building first (${stale.length === 1 ? stale[0] : `${stale.length} packages`} changed since the last build)`);
const filters = targets.map((target) => `--filter=${target}...`);
const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'], {
  cwd: root,
  // Never on stdout: `pnpm svc keys create` prints the new key there.
  stdio: ['ignore', 2, 2],
  env: { ...process.env, SVC_SKIP_DTS: '1' },
});
process.exit(build.status ?? 1);
