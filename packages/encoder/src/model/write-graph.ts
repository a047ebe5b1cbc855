import { closeSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
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
const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof import('onnx-proto');
/** Initializers of at least this many bytes go to the data file; each starts on a page. */
const EXTERNAL_BYTES = 1024;
const PAGE = 4096;

/** The model with its large initializers moved to `dataFile` (ONNX external data: location, offset, length), and that file's bytes. */
function externalise(graph: Uint8Array, dataFile: string): { model: Uint8Array; data: Buffer } {
  const model = onnx.ModelProto.decode(graph);
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const tensor of model.graph?.initializer ?? []) {
    const raw = tensor.rawData;
    if (!raw || raw.length < EXTERNAL_BYTES) continue;
    const pad = (PAGE - (offset % PAGE)) % PAGE;
    parts.push(new Uint8Array(pad), raw);
    offset += pad;
    tensor.externalData = [
      { key: 'location', value: dataFile },
      { key: 'offset', value: String(offset) },
      { key: 'length', value: String(raw.length) },
    ];
    tensor.dataLocation = onnx.TensorProto.DataLocation.EXTERNAL;
    tensor.rawData = new Uint8Array(0);
    offset += raw.length;
  }
  return { model: onnx.ModelProto.encode(model).finish(), data: Buffer.concat(parts) };
}

/**
 * Writes `bytes` to `file` 64 KiB at a time. One write of the whole 26 MB leaves the file in the
 * page cache as large folios (ext4, Linux 6.x), and onnxruntime's mapping of it then keeps ~5.8
 * MiB of it resident instead of ~2.1 (a start right after a build: docs/operations.md, "Memory budget").
 */
function writeInSmallWrites(file: string, bytes: Uint8Array): void {
  const fd = openSync(file, 'w');
  try {
    for (let offset = 0; offset < bytes.length; offset += 65_536) writeSync(fd, bytes, offset, Math.min(65_536, bytes.length - offset));
  } finally {
    closeSync(fd);
  }
}

const distDir = dirname(fileURLToPath(import.meta.url));
for (const file of Object.values(PREBUILT_GRAPH)) rmSync(join(distDir, file), { force: true });
try {
  const modelDir = weightsPackageDir();
  const key = graphKeyOf(modelDir, PREBUILT_SETTINGS);
  if (!key) throw new Error('model.fp16.safetensors is missing');
  const model = await loadModel(modelDir, PREBUILT_SETTINGS.weights, pairProjection(384, PREBUILT_SETTINGS.pairContext));
  const { model: bytes, data } = externalise(model.graph, PREBUILT_GRAPH.data);
  writeInSmallWrites(join(distDir, PREBUILT_GRAPH.data), data);
  writeFileSync(join(distDir, PREBUILT_GRAPH.graph), bytes);
  writeFileSync(join(distDir, PREBUILT_GRAPH.key), `${JSON.stringify(key)}\n`);
} catch (error) {
  console.warn(`@svc/encoder: no prebuilt graph (${(error instanceof Error ? error.message : String(error)).split('\n')[0]}); the start builds it`);
}
