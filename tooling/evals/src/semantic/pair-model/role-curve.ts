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
