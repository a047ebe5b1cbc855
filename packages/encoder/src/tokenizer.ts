import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { weightsPackageDir } from './model/weights-package.js';
import { createWordPiece, type WordPiece } from './tokenize/word-piece.js';

export type { WordPiece } from './tokenize/word-piece.js';

/**
 * The encoder's own WordPiece tokenizer (ids with `[CLS]`/`[SEP]`, at most `maxTokens`), from the
 * weights package: for offline tools that need the model's token ids, e.g. to train on them.
 */
export async function loadTokenizer(maxTokens = 256): Promise<WordPiece> {
  return createWordPiece(JSON.parse(await readFile(join(weightsPackageDir(), 'tokenizer.json'), 'utf8')) as object, maxTokens);
}
