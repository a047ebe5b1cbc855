/**
 * The contextual replaced-word reader (@svc/semantic's context-features.ts; CONTEXT_RAW=1 in
 * role-train.ts) over the token states the trainer keeps on disk (raw 384 numbers a word piece, or
 * through the fixed projection with CONTEXT_PROJ).
 */
import { type ContextRows, contextFeatures, type RoleLexicon } from '@svc/semantic';
import type { TokenTable } from '../alignment/token-cache.js';

const SPECIAL = new Set([101, 102]);

/** The raw contextual features' names (as the role model's inputs name them). */
export { CONTEXT_FEATURE_NAMES as RAW_CONTEXT_FEATURE_NAMES } from '@svc/semantic';

function text(table: TokenTable, value: string): ContextRows {
  const at = table.index.get(value);
  if (at === undefined) throw new Error(`no token states for: ${value}`);
  const ids = table.ids[at]!;
  const states = table.states[at]!;
  return { ids, states, rows: [...ids.keys()].filter((r) => !SPECIAL.has(ids[r]!)), d: states.length / ids.length };
}

/** {@link contextFeatures} of two texts of the table, their states as it holds them (the projected ones of unit length). */
export function rawContextFeatures(table: TokenTable, stored: string, asked: string, lex: RoleLexicon, unrelatedBelow = 0.5): number[] {
  return contextFeatures(text(table, stored), text(table, asked), lex, unrelatedBelow);
}
