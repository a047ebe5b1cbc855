import { type Alignment, align, selectTokens, type TokenSide } from './align.js';
import type { TokenTable } from './token-cache.js';

/** The alignment variants: every token at weight 1, IDF-weighted, stop words excluded, both. */
export const variants = ['plain', 'idf', 'stop', 'idf-stop'] as const;
export type Variant = (typeof variants)[number];
export type PairScores = Record<Variant, Alignment>;

/** What the variants need: IDF per word-piece id (calibration half only) and the stop ids. */
export interface Weighting {
  idf: Map<number, number>;
  /** IDF of a piece the calibration half never had. */
  unseenIdf: number;
  stop: ReadonlySet<number>;
}

/** IDF, ln((N + 1) / (df + 1)), over the distinct questions `texts` (the calibration half). */
export function learnIdf(table: TokenTable, texts: readonly string[]): Pick<Weighting, 'idf' | 'unseenIdf'> {
  const df = new Map<number, number>();
  const distinct = [...new Set(texts)];
  for (const text of distinct) for (const id of new Set(table.ids[table.index.get(text)!]!)) df.set(id, (df.get(id) ?? 0) + 1);
  const n = distinct.length;
  return { idf: new Map([...df].map(([id, d]) => [id, Math.log((n + 1) / (d + 1))])), unseenIdf: Math.log(n + 1) };
}

function sidesOf(table: TokenTable, text: string, w: Weighting): Record<Variant, TokenSide> {
  const i = table.index.get(text);
  if (i === undefined) throw new Error(`no token states for ${JSON.stringify(text.slice(0, 60))}`);
  const ids = Array.from(table.ids[i]!);
  const states = table.states[i]!;
  const ones = ids.map(() => 1);
  const idf = ids.map((id) => w.idf.get(id) ?? w.unseenIdf);
  let keep = ids.map((id) => !w.stop.has(id));
  // A question of stop words only keeps them all.
  if (!keep.some(Boolean)) keep = ids.map(() => true);
  return {
    plain: { states, weights: Float64Array.from(ones) },
    idf: { states, weights: Float64Array.from(idf) },
    stop: selectTokens(states, ones, keep),
    'idf-stop': selectTokens(states, idf, keep),
  };
}

/** Every variant's alignment of an asked question against a stored one. */
export function pairScores(table: TokenTable, asked: string, stored: string, w: Weighting): PairScores {
  const [a, s] = [sidesOf(table, asked, w), sidesOf(table, stored, w)];
  return { plain: align(a.plain, s.plain), idf: align(a.idf, s.idf), stop: align(a.stop, s.stop), 'idf-stop': align(a['idf-stop'], s['idf-stop']) };
}
