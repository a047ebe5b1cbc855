import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/test/index.ts'],
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  // The conformance suite runs inside the consumer's vitest; never bundle it.
  external: ['vitest'],
});
