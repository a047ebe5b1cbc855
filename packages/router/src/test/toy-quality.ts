import { type QualityModel, textSignalCount } from '../quality/quality-model.js';

/** A 4-dimension quality model: the first embedding component is the difficulty. */
export const toy: QualityModel = {
  version: 1,
  embedder: 'toy',
  dimensions: 4,
  bias: 0,
  embeddingWeights: Float32Array.from([3, 0, 0, 0]),
  textWeights: new Float32Array(textSignalCount),
  textOnly: { bias: 0, weights: new Float32Array(textSignalCount) },
  discrimination: { bias: 0, embeddingWeights: new Float32Array(4), textWeights: new Float32Array(textSignalCount), textOnly: { bias: 0, weights: new Float32Array(textSignalCount) } },
  difficultyQuantiles: Float32Array.from({ length: 101 }, (_, i) => -3 + (6 * i) / 100),
  discriminationSample: new Float32Array(101),
  abilities: {},
  trainedOn: 'test',
};

/** Prompts starting with "hard" embed at +1 on the first axis, others at -1. */
export const toyEmbedder = { embed: async (texts: string[]) => texts.map((t) => Float32Array.from([t.startsWith('hard') ? 1 : -1, 0, 0, 0])) };
