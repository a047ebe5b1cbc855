import { CONTEXT_FEATURE_NAMES, contextFeatures, contextRows } from './context-features.js';
import { REPLACED_FEATURE_NAMES, replacedFeatures, type WordTable } from './replaced-features.js';
import type { RoleLexicon } from './role-features.js';
import type { TokenFeatures } from './token-features.js';

/**
 * What the replaced-word readers need beside the pair model's features (issue #27): where each
 * word piece's fixed projection of its last-block state starts in the features (after the pair
 * model's own numbers), and the word-piece table reduced by the same kind of projection.
 */
export interface ReplacedContext {
  from: number;
  table: WordTable;
}

/** The inputs a role model may read beyond its role features: the replaced-word readers', in {@link readerInputs}' order. */
export const READER_INPUTS: readonly string[] = [...REPLACED_FEATURE_NAMES, ...CONTEXT_FEATURE_NAMES];

/** The replaced-word readers' inputs for a pair (replaced-features.ts, then context-features.ts), as the trainer appends them. */
export function readerInputs(stored: TokenFeatures, asked: TokenFeatures, lexicon: RoleLexicon, context: ReplacedContext): number[] {
  return [...replacedFeatures(stored.ids, asked.ids, lexicon, context.table), ...contextFeatures(contextRows(stored, context.from), contextRows(asked, context.from), lexicon)];
}
