import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cachedEmbedMany, createSentenceEncoder, type SentenceEncoder } from '@svc/encoder';
import { cacheDir, type Item } from './data.js';

let encoder: SentenceEncoder | undefined;

/** The shared MiniLM encoder, started once. */
export function sharedEncoder(): SentenceEncoder {
  encoder ??= createSentenceEncoder({ cacheSize: 0 });
  return encoder;
}

export async function closeEncoder(): Promise<void> {
  await encoder?.close();
  encoder = undefined;
}

/** MiniLM vectors of the items' prompts, encoded once per source and kept in `cacheDir`. */
export async function embedItems(source: string, items: readonly Item[]): Promise<Float32Array[]> {
  mkdirSync(cacheDir, { recursive: true });
  let last = 0;
  return cachedEmbedMany(join(cacheDir, `${source}.vec`), sharedEncoder(), items.map((i) => i.prompt), {
    onProgress: (done, total) => {
      if (done - last >= 2000 || done === total) {
        last = done;
        process.stderr.write(`embedding ${source}: ${done}/${total}\n`);
      }
    },
  });
}
