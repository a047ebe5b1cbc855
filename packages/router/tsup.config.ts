import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  // Always emitted, even under SVC_SKIP_DTS: other TypeScript projects import the router as a library,
  // and `exports.types` must name a file the build wrote.
  dts: true,
  sourcemap: true,
  clean: true,
});
