import { existsSync, readFileSync } from 'node:fs';
import { cachedEmbedMany, createSentenceEncoder, readVectorFile, textsFingerprint, writeVectorFile } from '@svc/encoder';
import { createHashedEmbedder, firstColumns, shippedPairReader, shippedRoleModel, type Embedder, type PairReader, parseRoleModel, roleReader, type TokenFeatures } from '@svc/semantic';
import { encodeAlone, readFeatureTable, writeFeatureTable } from './feature-table.js';

const PREVIOUS_ROLE_MODEL = new URL('../../../../packages/semantic/src/pair/minilm-role-v1.json', import.meta.url);

/**
 * The previous role model over the pair model (its file stays in the repo for this comparison);
 * over features with the fixed projection (`pairContext`, role model v3), the shipped v2 over their
 * first numbers, as the pair model's own id.
 */
function previousRoleReader(pair: PairReader): PairReader | undefined {
  const v2 = shippedRoleModel();
  if (pair.context) {
    const own = (f: TokenFeatures) => firstColumns(f, pair.context!.from);
    const view: PairReader = { id: v2.base, dimensions: pair.context.from, threshold: pair.threshold, features: async (text) => own(await pair.features(text)), score: (q, s, c) => pair.score(q, s, c) };
    return roleReader(view, v2);
  }
  return existsSync(PREVIOUS_ROLE_MODEL) ? roleReader(pair, parseRoleModel(JSON.parse(readFileSync(PREVIOUS_ROLE_MODEL, 'utf8')))) : undefined;
}

/** An embedder whose vectors were computed beforehand; it refuses a text it was not given. */
export interface TableEmbedder extends Embedder {
  /** The encoder's own pair model (the grid head alone), where `pairReader` is the shipped role model over it. */
  basePairReader?: PairReader;
  /** The role model shipped before this one (minilm-role-v1, kept beside it), over the same pair model: the tables' "before" row. */
  previousPairReader?: PairReader;
  /** Mean CPU (the whole process: the encoder's thread too) per single-text embed of the real embedder, microseconds. */
  embedCpuUs: number;
}

const progress = (done: number, total: number) => {
  if (done === total || done % 2048 === 0) console.error(`encoding ${done} / ${total}`);
};

/**
 * The pair model's features of every text, float as the encoder computed them, each text encoded
 * alone (what the gateway reads for an asked question: the encoder's memo of that request's own
 * pass; a stored entry's are packed by the cache itself, as in the gateway), kept in
 * `<vectorsFile>.features` with the vectors of the same passes in `vectorsFile`, so a rerun takes seconds.
 */
async function featureTable(encoder: Embedder, pair: PairReader, texts: readonly string[], vectorsFile: string): Promise<{ vectors: Float32Array[]; features: Map<string, TokenFeatures> }> {
  const file = `${vectorsFile}.features`;
  const fingerprint = textsFingerprint(texts);
  const kept = readFeatureTable(file);
  const keptVectors = await readVectorFile(vectorsFile).catch(() => undefined);
  const valid = kept?.model === pair.id && kept.fingerprint === fingerprint && kept.dimensions === pair.dimensions && keptVectors?.embedder === encoder.id && keptVectors.fingerprint === fingerprint;
  let encoded = valid ? { vectors: keptVectors.vectors, features: kept.features } : undefined;
  if (!encoded) {
    encoded = await encodeAlone(encoder, pair, texts, progress);
    writeFeatureTable(file, { model: pair.id, fingerprint, dimensions: pair.dimensions, features: encoded.features });
    await writeVectorFile(vectorsFile, { embedder: encoder.id, dimensions: encoder.dimensions, fingerprint, vectors: encoded.vectors });
  }
  const { features } = encoded;
  return { vectors: encoded.vectors, features: new Map(texts.map((text, i) => [text, features[i]!])) };
}

/** The real pair model's scorer over a table of precomputed features. */
function tablePairReader(pair: PairReader, table: Map<string, TokenFeatures>): PairReader {
  return {
    id: pair.id,
    dimensions: pair.dimensions,
    threshold: pair.threshold,
    async features(text) {
      const features = table.get(text);
      if (!features) throw new Error(`no precomputed pair features for ${JSON.stringify(text.slice(0, 60))}`);
      return features;
    },
    score: (query, stored, cosine) => pair.score(query, stored, cosine),
    ...(pair.context ? { context: pair.context } : {}),
  };
}

/**
 * Encodes every distinct text once (all-MiniLM-L6-v2 by default, its int8 weights; `minilm-fp32`
 * the same model in fp32, which answers with the same id: give it its own `vectorsFile`; kept in `vectorsFile` so a rerun
 * takes seconds; ~10 minutes for the 74,772 texts of the three sets on this machine) and returns
 * a table of them, so every lookup of the evaluation costs what the cache costs after the embedding.
 * With the encoder's pair model, its float features too (`<vectorsFile>.features`, each text encoded
 * alone as the gateway encodes a request's question: `featureTable`), offered as the
 * table's `basePairReader`, and read through the shipped role model as its `pairReader` (what a
 * cache uses by default; `roleModel` false: the base model, for training the role model).
 */
export async function tableEmbedder(kind: string, texts: readonly string[], vectorsFile: string, roleModel = true, pairContext = true): Promise<TableEmbedder> {
  const distinct = [...new Set(texts)].sort();
  // Niceness 0: an offline run has no requests to yield to (at the default 19 a loaded machine starves the encoder's thread).
  const real = kind === 'hashed' ? createHashedEmbedder() : createSentenceEncoder({ cacheSize: 256, weights: kind === 'minilm-fp32' ? 'fp32' : 'int8', pairContext, niceness: 0 });
  try {
    const encoded = real.pairReader ? await featureTable(real, real.pairReader, distinct, vectorsFile) : undefined;
    const pair = real.pairReader && encoded ? tablePairReader(real.pairReader, encoded.features) : undefined;
    const vectors = encoded?.vectors ?? (await cachedEmbedMany(vectorsFile, real, distinct, { onProgress: progress }));
    const table = new Map(distinct.map((text, i) => [text, vectors[i]!]));
    const sample = distinct.slice(0, 200);
    const cpu = process.cpuUsage();
    for (const text of sample) await real.embed([`${text} `]);
    const used = process.cpuUsage(cpu);
    return {
      id: real.id,
      dimensions: real.dimensions,
      embedCpuUs: (used.user + used.system) / sample.length,
      ...(pair ? { pairReader: roleModel ? shippedPairReader(pair)! : pair, basePairReader: pair, previousPairReader: previousRoleReader(pair) } : {}),
      async embed(batch) {
        return batch.map((text) => {
          const vector = table.get(text);
          if (!vector) throw new Error(`no precomputed vector for ${JSON.stringify(text.slice(0, 60))}`);
          return vector;
        });
      },
    };
  } finally {
    await (real as Embedder & { close?: () => Promise<void> }).close?.();
  }
}
