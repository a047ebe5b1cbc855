import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every workspace project, so `pnpm test` prints one summary.
export default defineConfig({
  test: {
    // Vitest's default in run mode is one worker fewer than the CPUs: one on the 2-core machines CI
    // and development run on, so the files ran one at a time while most of them wait on sockets,
    // child processes and timers. Two at least: a clean-clone trial of .ci/run on 2026-12-07 took
    // the tests from 1,633 to 1,043 s wall (515 files passed), each test ~30% slower under the
    // contention and the slowest without a limit of its own at 11 s of its 30 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['packages/*', 'apps/*', 'tooling/*', 'examples/*'],
  },
});
