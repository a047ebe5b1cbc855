import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@svc/source'] },
  ssr: { resolve: { conditions: ['@svc/source'] } },
  test: { environment: 'node', hookTimeout: 60_000, testTimeout: 30_000 },
});
