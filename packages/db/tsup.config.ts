import { defineConfig } from 'tsup';

export default defineConfig({
  // Named entries keep dist/index.js (and the chunks it shares) directly in dist/, so
  // `new URL('../migrations', import.meta.url)` in migrate.ts resolves to the shipped folder.
  entry: { index: 'src/index.ts', 'test/index': 'src/test/index.ts', 'pglite-prepare': 'src/pglite-prepare.ts', 'store-worker': 'src/thread/store-worker.ts' },
  format: ['esm'],
  target: 'node20',
  // `pnpm start` skips declarations (SVC_SKIP_DTS=1): only library consumers need them.
  dts: process.env.SVC_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
  // The test subpath runs inside the consumer's vitest; never bundle a second copy.
  external: ['vitest', 'pglite-0.3'],
});
