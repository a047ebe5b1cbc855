import { defineConfig } from 'vitest/config';

// One run over every workspace project, so `pnpm test` prints one summary.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling/*', 'examples/*'],
  },
});
