import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a model folder yields: the ONNX graph (its bytes, or the path of a prebuilt one) and the tokenizer definition. */
export interface LoadedModel {
  graph: Uint8Array | string;
  tokenizerJson: object;
}

/** A file of a model folder; throws naming it. */
export async function readModelFile(modelDir: string, file: string): Promise<Buffer> {
  try {
    return await readFile(join(modelDir, file));
  } catch (error) {
    throw new Error(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A model file's bytes parsed as JSON; throws naming the file. */
export function parseJson(file: string, bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`${file} is not JSON`);
  }
}

/** `tokenizer.json`'s bytes, parsed; throws unless it is a JSON object. */
export function parseTokenizerJson(bytes: Buffer): object {
  const tokenizerJson = parseJson('tokenizer.json', bytes);
  if (typeof tokenizerJson !== 'object' || tokenizerJson === null) throw new Error('tokenizer.json is not an object');
  return tokenizerJson;
}

/**
 * A model whose graph was built beforehand (`graphPath`, prebuilt-graph.ts, from this folder's
 * weights and config): only the tokenizer is read; the widths come from the graph. Apart from
 * `loadModel` (load-model.ts), so that a start with the prebuilt graph loads none of the graph's
 * builder nor the config's validation (onnx-proto, protobufjs, valibot: docs/operations.md,
 * "Memory budget").
 */
export async function loadPrebuiltModel(modelDir: string, graphPath: string): Promise<LoadedModel> {
  return { graph: graphPath, tokenizerJson: parseTokenizerJson(await readModelFile(modelDir, 'tokenizer.json')) };
}
