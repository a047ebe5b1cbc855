import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/test/index.ts', 'src/training.ts', 'src/pair/fixed-projection.ts'],
  format: ['esm'],
  target: 'node20',
  // `pnpm start` skips declarations (SVC_SKIP_DTS=1): only library consumers need them.
  dts: process.env.SVC_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
  // The conformance suite runs inside the consumer's vitest; never bundle it.
  external: ['vitest'],
});
