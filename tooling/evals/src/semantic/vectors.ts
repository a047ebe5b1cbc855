import { cachedEmbedMany, createSentenceEncoder } from '@svc/encoder';
import { createHashedEmbedder, type Embedder } from '@svc/semantic';

/** An embedder whose vectors were computed beforehand; it refuses a text it was not given. */
export interface TableEmbedder extends Embedder {
  /** Mean CPU (the whole process: the encoder's thread too) per single-text embed of the real embedder, microseconds. */
  embedCpuUs: number;
}

/**
 * Encodes every distinct text once (all-MiniLM-L6-v2 by default, kept in `vectorsFile` so a rerun
 * takes seconds; ~10 minutes for the 74,772 texts of the three sets on this machine) and returns
 * a table of them, so every lookup of the evaluation costs what the cache costs after the embedding.
 */
export async function tableEmbedder(kind: string, texts: readonly string[], vectorsFile: string): Promise<TableEmbedder> {
  const distinct = [...new Set(texts)].sort();
  const real = kind === 'hashed' ? createHashedEmbedder() : createSentenceEncoder({ cacheSize: 0 });
  try {
    const vectors = await cachedEmbedMany(vectorsFile, real, distinct, {
      onProgress: (done, total) => {
        if (done % 6400 < 64) console.error(`encoding ${done} / ${total}`);
      },
    });
    const table = new Map(distinct.map((text, i) => [text, vectors[i]!]));
    const sample = distinct.slice(0, 200);
    const cpu = process.cpuUsage();
    for (const text of sample) await real.embed([`${text} `]);
    const used = process.cpuUsage(cpu);
    return {
      id: real.id,
      dimensions: real.dimensions,
      embedCpuUs: (used.user + used.system) / sample.length,
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
