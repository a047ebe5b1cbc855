import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportUncleanEnd, terminate } from './gateway.js';

/** A child that has said it is listening for SIGTERM, then ends as `onTerm` says. */
async function child(onTerm: string) {
  const running = spawn(process.execPath, ['-e', `process.on('SIGTERM', () => { ${onTerm} }); console.log('up'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => running.stdout.once('data', resolve));
  return running;
}

describe('the live gateway harness', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it('reads how the gateway ended on SIGTERM: its exit code, or the signal that killed it', async () => {
    expect(await terminate(await child('process.exit(0)'))).toEqual({ code: 0, signal: null });
    expect(await terminate(await child('process.exit(3)'))).toEqual({ code: 3, signal: null });
    expect(await terminate(await child('process.abort()'))).toEqual({ code: null, signal: 'SIGABRT' });
  });

  it('makes the evaluation exit non-zero and says why when the gateway did not end cleanly, and stays quiet when it did', () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    reportUncleanEnd({ code: 0, signal: null });
    expect(process.exitCode).toBeUndefined();
    reportUncleanEnd({ code: null, signal: 'SIGABRT' });
    expect(process.exitCode).toBe(1);
    expect(said).toHaveBeenCalledWith(expect.stringContaining('killed by SIGABRT'));
  });
});
