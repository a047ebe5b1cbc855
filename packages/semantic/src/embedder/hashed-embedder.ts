import { FeatureTable } from './feature-table.js';
import { fnv, fnvBasis, fnvStep, mix } from './hash.js';
import type { Embedder } from './interface.js';
import { stem, stopwords, wordTokens } from './tokens.js';

/** Tuning of {@link createHashedEmbedder}; the defaults are the calibrated ones (docs/caching.md). */
export interface HashedEmbedderOptions {
  /** Vector length, a power of two in 64..65536 (default 512). */
  dimensions?: number;
  /** Character n-gram lengths taken inside each space-padded word (default 3..5). */
  charNgrams?: { min: number; max: number };
  /** Relative weight of each feature group after per-group normalisation (default chars 1, words 1, bigrams 0.6). */
  weights?: { chars?: number; words?: number; bigrams?: number };
  /** Weight of a function word's features relative to a content word's (default 0.25). */
  stopwordWeight?: number;
  /** Light suffix stemming of word features (default true). */
  stemming?: boolean;
  /** The function words that get `stopwordWeight` (default: {@link stopwords}, English). */
  stopwords?: ReadonlySet<string>;
}

const defaults = {
  dimensions: 512,
  charMin: 3,
  charMax: 5,
  chars: 1,
  words: 1,
  bigrams: 0.6,
  stopwordWeight: 0.25,
  stemming: true,
};

const CHARS = 0;
const WORDS = 1;
const BIGRAMS = 2;
const groupSeeds = [0x2545f491, 0x9e3779b9, 0x85ebca6b];

/** The options resolved and checked, with the id they give. */
interface Recipe {
  id: string;
  dimensions: number;
  charMin: number;
  charMax: number;
  groupWeights: number[];
  stopwordWeight: number;
  stemming: boolean;
  functionWords: ReadonlySet<string>;
}

function resolveRecipe(options: HashedEmbedderOptions): Recipe {
  const dimensions = options.dimensions ?? defaults.dimensions;
  if (!Number.isInteger(dimensions) || dimensions < 64 || dimensions > 65536 || (dimensions & (dimensions - 1)) !== 0) {
    throw new RangeError(`dimensions must be a power of two in 64..65536, got ${dimensions}`);
  }
  const charMin = options.charNgrams?.min ?? defaults.charMin;
  const charMax = options.charNgrams?.max ?? defaults.charMax;
  if (!Number.isInteger(charMin) || !Number.isInteger(charMax) || charMin < 1 || charMax < charMin || charMax > 8) {
    throw new RangeError(`charNgrams must satisfy 1 <= min <= max <= 8, got ${charMin}..${charMax}`);
  }
  const groupWeights = [options.weights?.chars ?? defaults.chars, options.weights?.words ?? defaults.words, options.weights?.bigrams ?? defaults.bigrams];
  const stopwordWeight = options.stopwordWeight ?? defaults.stopwordWeight;
  const stemming = options.stemming ?? defaults.stemming;
  const functionWords = options.stopwords ?? stopwords;
  const settings = [
    `d${dimensions}`,
    `c${charMin}${charMax}`,
    `w${groupWeights.join('_')}`,
    `s${stopwordWeight}`,
    stemming ? 'st' : 'nost',
    functionWords === stopwords ? 'en' : `sw${functionWords.size}`,
  ];
  const isDefault =
    dimensions === defaults.dimensions &&
    charMin === defaults.charMin &&
    charMax === defaults.charMax &&
    groupWeights[0] === defaults.chars &&
    groupWeights[1] === defaults.words &&
    groupWeights[2] === defaults.bigrams &&
    stopwordWeight === defaults.stopwordWeight &&
    stemming === defaults.stemming &&
    functionWords === stopwords;
  const id = isDefault ? `hashed-ngram-v1-${dimensions}` : `hashed-ngram-v1-${settings.join('-')}`;
  return { id, dimensions, charMin, charMax, groupWeights, stopwordWeight, stemming, functionWords };
}

/** Fills `table` with the text's character n-grams, words and word bigrams. */
function collect(table: FeatureTable, recipe: Recipe, text: string): void {
  const { charMin, charMax, stopwordWeight } = recipe;
  table.reset();
  let previous = 0;
  let previousStop = true;
  let first = true;
  for (const token of wordTokens(text)) {
    const stop = recipe.functionWords.has(token);
    const weight = stop ? stopwordWeight : 1;
    const padded = ` ${token} `;
    if (padded.length < charMin) table.add(mix(fnv(padded, groupSeeds[CHARS]!)), weight, CHARS);
    for (let start = 0; start + charMin <= padded.length; start++) {
      let h = fnvBasis(groupSeeds[CHARS]!);
      const end = Math.min(padded.length, start + charMax);
      for (let j = start; j < end; j++) {
        h = fnvStep(h, padded.charCodeAt(j));
        if (j - start + 1 >= charMin) table.add(mix(h), weight, CHARS);
      }
    }
    const word = fnv(recipe.stemming ? stem(token) : token, groupSeeds[WORDS]!);
    table.add(mix(word), weight, WORDS);
    if (!first) table.add(mix(Math.imul(previous, 0x9e3779b1) ^ word ^ groupSeeds[BIGRAMS]!), previousStop && stop ? stopwordWeight : 1, BIGRAMS);
    previous = word;
    previousStop = stop;
    first = false;
  }
}

/** The table's features hashed into a unit vector: sublinear term frequency, each group normalised on its own and weighted. */
function hashInto(table: FeatureTable, recipe: Recipe): Float32Array {
  const { dimensions, groupWeights } = recipe;
  const groupSquares = new Float64Array(3);
  for (let i = 0; i < table.size; i++) {
    const v = table.weight(i) * (1 + Math.log(table.count(i)));
    groupSquares[table.group(i)]! += v * v;
  }
  const scale = [0, 1, 2].map((g) => (groupSquares[g]! > 0 ? groupWeights[g]! / Math.sqrt(groupSquares[g]!) : 0));
  const vector = new Float32Array(dimensions);
  const mask = dimensions - 1;
  for (let i = 0; i < table.size; i++) {
    const key = table.key(i);
    const v = table.weight(i) * (1 + Math.log(table.count(i))) * scale[table.group(i)]!;
    vector[key & mask]! += key & 0x80000000 ? -v : v;
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vector[i]! * vector[i]!;
  if (norm > 0) {
    const inverse = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) vector[i]! *= inverse;
  }
  return vector;
}

/**
 * A local embedder that needs no model and no network: signed feature hashing of character
 * n-grams (spelling variants, inflections), word unigrams and word bigrams (word order), each
 * group with sublinear term frequency (1 + ln tf) and normalised on its own, then weighted and
 * L2-normalised. Deterministic across processes and machines. It measures lexical closeness,
 * not meaning: paraphrases that share no words stay apart, which its calibrated threshold
 * accounts for.
 */
export function createHashedEmbedder(options: HashedEmbedderOptions = {}): Embedder & { embedOne(text: string): Float32Array } {
  const recipe = resolveRecipe(options);
  const table = new FeatureTable();
  const embedOne = (text: string): Float32Array => {
    collect(table, recipe, text);
    return hashInto(table, recipe);
  };
  return { id: recipe.id, dimensions: recipe.dimensions, embedOne, embed: async (texts) => texts.map(embedOne) };
}
