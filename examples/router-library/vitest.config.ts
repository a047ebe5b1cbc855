import { defineProject } from 'vitest/config';

// No `@svc/source` condition: the test compiles and runs the README's lines against the built packages.
export default defineProject({
  test: { environment: 'node', testTimeout: 120_000 },
});
