import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/portkey-fetch-shim.ts', 'src/floor-proxy.ts', 'src/seed-ledger.ts', 'src/batch-bench.ts'],
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
});
