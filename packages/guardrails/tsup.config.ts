import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  // `pnpm start` skips declarations (SVC_SKIP_DTS=1): only library consumers need them.
  dts: process.env.SVC_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
});
