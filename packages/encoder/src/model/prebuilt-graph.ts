import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WeightFormat } from './dense-weights.js';

/**
 * The graph of the default settings, built once when the package is built (`write-graph.ts`,
 * tsup's `onSuccess`) and written beside the bundle: a start then hands onnxruntime a path and
 * neither reads the weights file nor builds the graph in JavaScript, the load's transient peak.
 * The initializers lie in a data file beside it (ONNX external data), which onnxruntime maps
 * instead of copying them out of the parsed model: ~15 MiB less at its peak, ~11 MiB less after.
 * Its key says what it was built from; a start whose settings or weights file differ builds its own.
 */
export const PREBUILT_GRAPH = { graph: 'minilm-int8.onnx', data: 'minilm-int8.onnx.data', key: 'minilm-int8.json' } as const;

/** The settings the prebuilt graph is built for (the encoder's defaults). */
export const PREBUILT_SETTINGS = { weights: 'int8', pairModel: true, pairContext: true } as const;

/** What a graph was built from: the settings that shape it and the weights file's size in bytes. */
export interface GraphKey {
  weights: WeightFormat;
  pairModel: boolean;
  pairContext: boolean;
  weightsBytes: number;
}

/** The key of a graph built from the weights in `modelDir` with these settings; undefined when the weights file is not there. */
export function graphKeyOf(modelDir: string, settings: Omit<GraphKey, 'weightsBytes'>): GraphKey | undefined {
  try {
    const weightsBytes = statSync(join(modelDir, 'model.fp16.safetensors')).size;
    return { weights: settings.weights, pairModel: settings.pairModel, pairContext: settings.pairContext, weightsBytes };
  } catch {
    return undefined;
  }
}

/** The prebuilt graph's path in `distDir` when its key equals `key` and its data file is there, else undefined (none built, or built from other weights or settings). */
export function prebuiltGraphPath(distDir: string, key: GraphKey | undefined): string | undefined {
  if (!key) return undefined;
  try {
    const stored = JSON.parse(readFileSync(join(distDir, PREBUILT_GRAPH.key), 'utf8')) as unknown;
    if (JSON.stringify(stored) !== JSON.stringify(key)) return undefined;
    const path = join(distDir, PREBUILT_GRAPH.graph);
    return statSync(path).isFile() && statSync(join(distDir, PREBUILT_GRAPH.data)).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
