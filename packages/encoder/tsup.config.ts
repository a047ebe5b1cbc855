import { defineConfig } from 'tsup';

export default defineConfig({
  // The inference thread's entry is a file of its own beside the bundle (spawn-worker.ts).
  // write-graph writes the default settings' graph beside them once built (model/prebuilt-graph.ts).
  entry: { index: 'src/index.ts', 'encoder-worker': 'src/worker/encoder-worker.ts', 'write-graph': 'src/model/write-graph.ts' },
  onSuccess: 'node dist/write-graph.js',
  format: ['esm'],
  target: 'node20',
  // `pnpm start` skips declarations (SVC_SKIP_DTS=1): only library consumers need them.
  dts: process.env.SVC_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
});
