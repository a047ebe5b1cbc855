import type { PairRecord, RoleExample } from './role-examples.js';
import type { Fitted } from './role-fit.js';

/** The fitted model's probability for one example's inputs. */
export function probability(model: Fitted, inputs: readonly number[]): number {
  const x = inputs.map((value, k) => (value - model.mean[k]!) / model.scale[k]!);
  let z = model.out.b[0]!;
  for (let u = 0; u < model.out.w.length; u++) {
    let h = model.hidden.b[u]!;
    for (let k = 0; k < x.length; k++) h += model.hidden.w[u * x.length + k]! * x[k]!;
    z += model.out.w[u]! * Math.max(0, h);
  }
  return 1 / (1 + Math.exp(-z));
}

export const pct = (share: number) => `${(100 * share).toFixed(1)}%`;

/** Whether the cache would serve the pair at threshold `t` (either side stored: the lower of the two orders' scores must reach it). */
function served(record: PairRecord, t: number, score: (e: RoleExample) => number, floor: number): boolean {
  if (record.route === 'refused') return false;
  if (record.route === 'unasked' || record.overlap < floor) return true;
  return Math.min(...record.examples.map(score)) >= t;
}

/** Served shares at threshold `t`: PAWS non-paraphrases and paraphrases, GPTCache's pairs, and per generation rule. */
export function servedAt(records: readonly PairRecord[], t: number, score: (e: RoleExample) => number, floor = 0): { neg: number; pos: number; gpt: number; rules: string } {
  const share = (kind: string, y?: number) => {
    const rows = records.filter((r) => r.pair.kind === kind && (y === undefined || r.pair.y === y));
    return rows.filter((r) => served(r, t, score, floor)).length / Math.max(1, rows.length);
  };
  const rules = [...new Set(records.map((r) => r.pair.kind))].filter((kind) => kind !== 'paws' && kind !== 'gptcache-even');
  return { neg: share('paws', 0), pos: share('paws', 1), gpt: share('gptcache-even'), rules: rules.map((kind) => `${kind} ${pct(share(kind))}`).join(', ') };
}

/** One operating point of two thresholds keyed on the regime: `moved` for pairs whose texts differ only by moves, `replaced` for the rest. */
export interface RegimePoint {
  moved: number;
  replaced: number;
  neg: number;
  pos: number;
  gpt: number;
}

/**
 * Two thresholds keyed on the regime (issue #27): pairs whose texts keep every content word and
 * differ only by moves (PAWS's swaps) against pairs with a content word replaced (GPTCache's
 * rewordings). Every point of the grid whose PAWS non-paraphrases served stay within `target`,
 * the most GPTCache pairs served first.
 */
export function regimeCurve(records: readonly PairRecord[], score: (e: RoleExample) => number, rearranged: (e: RoleExample) => boolean, target: number): RegimePoint[] {
  const grid = [0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.825, 0.85, 0.875, 0.9, 0.925, 0.95, 0.97, 0.99];
  const points: RegimePoint[] = [];
  for (const moved of grid) {
    for (const replaced of grid) {
      const c = servedAt(records, 0.5, (e) => (score(e) >= (rearranged(e) ? moved : replaced) ? 1 : 0));
      if (c.neg <= target) points.push({ moved, replaced, neg: c.neg, pos: c.pos, gpt: c.gpt });
    }
  }
  return points.sort((x, y) => y.gpt - x.gpt || y.pos - x.pos);
}
