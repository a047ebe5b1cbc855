import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  dts: process.env.SVC_SKIP_DTS === '1' ? false : { entry: ['src/index.ts'] },
  sourcemap: true,
  clean: true,
});
