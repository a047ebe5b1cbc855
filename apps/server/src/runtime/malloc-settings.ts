import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the gateway process's glibc malloc settings live, relative to the repository. */
export const MALLOC_SETTINGS_FILE = 'scripts/malloc.env';

/**
 * The glibc malloc settings the gateway is started with (`scripts/malloc.env`: `NAME=value`
 * lines, `#` comments): what `scripts/start.sh` exports (so `pnpm start`), what the Dockerfile
 * sets and what the bench's shipped-defaults svc runs with. They must be in the environment
 * before Node starts; the gateway itself never reads them.
 */
export function readMallocSettings(root: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(join(root, MALLOC_SETTINGS_FILE), 'utf8').split('\n')) {
    const text = line.trim();
    if (text === '' || text.startsWith('#')) continue;
    const at = text.indexOf('=');
    if (at <= 0) throw new Error(`${MALLOC_SETTINGS_FILE}: not NAME=value: ${text}`);
    settings[text.slice(0, at)] = text.slice(at + 1);
  }
  return settings;
}

/** Whether `name` is a glibc malloc tunable read from the environment (`MALLOC_*`). */
export function isMallocVariable(name: string): boolean {
  return name.startsWith('MALLOC_');
}
