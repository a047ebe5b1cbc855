import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PORTKEY_VERSION, findPortkey, installPortkey, portkeyCacheDir } from './portkey-target.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function fakeInstall(version: string): string {
  dir = mkdtempSync(join(tmpdir(), 'svc-portkey-'));
  const pkg = join(dir, 'node_modules', '@portkey-ai', 'gateway');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@portkey-ai/gateway', version }));
  return dir;
}

describe('the peer gateway is the bench’s own install, not a project dependency', () => {
  it('lives in a versioned cache folder under node_modules/.cache', () => {
    expect(portkeyCacheDir('/repo')).toBe(`/repo/node_modules/.cache/svc-bench/portkey-${PORTKEY_VERSION}`);
  });

  it('is found in the cache folder, and not installed again when the pinned version is there', () => {
    const cache = fakeInstall(PORTKEY_VERSION);
    const lines: string[] = [];
    const found = installPortkey(cache, (line) => lines.push(line));
    expect(found).toMatchObject({ version: PORTKEY_VERSION, script: join(cache, 'node_modules/@portkey-ai/gateway/build/start-server.js') });
    expect(lines).toEqual([]);
  });

  it('is absent from an empty cache folder', () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-portkey-'));
    expect(findPortkey(dir)).toBeUndefined();
  });
});
