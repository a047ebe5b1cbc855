import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: ['esm'],
  target: 'node20',
  dts: process.env.SVC_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
});
