import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./__fixtures__/close-under-backlog.ts', import.meta.url));

/** Runs the child, sends SIGTERM `afterMs` after its backlog is queued; its exit and what it printed. */
function closeUnderBacklog(size: number, afterMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; report: string }> {
  const proc = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', child, String(size)], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  proc.stdout.on('data', (chunk: Buffer) => {
    const queued = stdout.includes('queued');
    stdout += chunk;
    if (!queued && stdout.includes('queued')) setTimeout(() => proc.kill('SIGTERM'), afterMs);
  });
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal, stderr, report: stdout.split('\n')[1] ?? '' })));
}

describe('closing the encoder under a backlog, as the gateway does on SIGTERM', () => {
  it('exits with code 0 without waiting for the batch in progress: it ends after its onnxruntime run, the rest is refused', async () => {
    // One batch of 256 texts at the 256-word-piece cap is ~13 s of runs here: the old stop waited
    // 10 s for the whole batch, then terminated the thread inside a run (SIGABRT, `Napi::Error`).
    const { code, signal, stderr, report } = await closeUnderBacklog(256, 300);
    expect(stderr).not.toMatch(/terminate called|Napi::Error/);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const { closeMs, refused } = JSON.parse(report) as { closeMs: number; refused: number };
    expect(refused).toBe(256);
    expect(closeMs).toBeLessThan(3000);
  }, 60_000);
});
