import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  // Always emitted, even under SVC_SKIP_DTS: the router, a library other TypeScript projects import,
  // names this package's types in its own declarations.
  dts: true,
  sourcemap: true,
  clean: true,
});
