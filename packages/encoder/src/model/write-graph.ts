import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairProjection } from '../pair/pair-projection.js';
import { loadModel } from './load-model.js';
import { graphKeyOf, PREBUILT_GRAPH, PREBUILT_SETTINGS } from './prebuilt-graph.js';
import { weightsPackageDir } from './weights-package.js';

// Build step (tsup's `onSuccess`, run as `node dist/write-graph.js`): writes the default settings'
// graph and its key beside the bundle (see prebuilt-graph.ts). A weights package that is missing
// or corrupt writes nothing and fails nothing here: the start then builds the graph itself and
// stops with the loader's one line, as before.
const distDir = dirname(fileURLToPath(import.meta.url));
for (const file of Object.values(PREBUILT_GRAPH)) rmSync(join(distDir, file), { force: true });
try {
  const modelDir = weightsPackageDir();
  const key = graphKeyOf(modelDir, PREBUILT_SETTINGS);
  if (!key) throw new Error('model.fp16.safetensors is missing');
  const model = await loadModel(modelDir, PREBUILT_SETTINGS.weights, pairProjection(384, PREBUILT_SETTINGS.pairContext));
  writeFileSync(join(distDir, PREBUILT_GRAPH.graph), model.graph);
  writeFileSync(join(distDir, PREBUILT_GRAPH.key), `${JSON.stringify(key)}\n`);
} catch (error) {
  console.warn(`@svc/encoder: no prebuilt graph (${(error instanceof Error ? error.message : String(error)).split('\n')[0]}); the start builds it`);
}
