/**
 * What any router could reach on labelled outcome data, before judging is paid for: the per-task
 * oracle (each task kind on the model better on it), and the least cost at a quality floor when
 * a router may send any share of a task kind (or, knowing every answer, of single prompts) to the
 * cheaper model. Quality and cost are relative to always-strong.
 */

/** Requests of one unit (a task kind, or one prompt): how many each model answers right, and what each costs in all. */
export interface Unit {
  n: number;
  strongRight: number;
  weakRight: number;
  strongCost: number;
  weakCost: number;
}

export interface Reach {
  /** Each unit on the model that answers more of it right (the cheaper one when they tie). */
  oracle: { quality: number; cost: number };
  /** The least cost with quality at least `floor`: units moved to the cheaper model in order of the least quality lost per cost saved, the last one in part. */
  atFloor: { quality: number; cost: number };
}

/** The oracle and the least cost at `floor` (e.g. 0.98) over `units`, against always-strong. */
export function reach(units: readonly Unit[], floor: number): Reach {
  const strongRight = units.reduce((s, u) => s + u.strongRight, 0);
  const strongCost = units.reduce((s, u) => s + u.strongCost, 0);
  let right = 0;
  let cost = 0;
  for (const u of units) {
    const weak = u.weakRight >= u.strongRight;
    right += weak ? u.weakRight : u.strongRight;
    cost += weak ? u.weakCost : u.strongCost;
  }
  const oracle = { quality: right / strongRight, cost: cost / strongCost };
  // From the oracle, move the units still on the strong model, least loss per saving first, while the floor allows.
  let budget = right - floor * strongRight;
  const rest = units.filter((u) => u.weakRight < u.strongRight).sort((a, b) => (a.strongRight - a.weakRight) / (a.strongCost - a.weakCost) - (b.strongRight - b.weakRight) / (b.strongCost - b.weakCost));
  for (const u of rest) {
    if (budget <= 0) break;
    const loss = u.strongRight - u.weakRight;
    const share = Math.min(1, budget / loss);
    budget -= share * loss;
    right -= share * loss;
    cost -= share * (u.strongCost - u.weakCost);
  }
  return { oracle, atFloor: { quality: right / strongRight, cost: cost / strongCost } };
}

/** Groups labelled requests into units by `unitOf` (a task kind; or a unique key per request for the per-prompt oracle). */
export function unitsOf<T>(rows: readonly T[], unitOf: (row: T, index: number) => string, outcome: (row: T) => { strong: boolean; weak: boolean; strongCost: number; weakCost: number }): Unit[] {
  const units = new Map<string, Unit>();
  for (const [index, row] of rows.entries()) {
    const o = outcome(row);
    const key = unitOf(row, index);
    const u = units.get(key) ?? { n: 0, strongRight: 0, weakRight: 0, strongCost: 0, weakCost: 0 };
    u.n++;
    u.strongRight += Number(o.strong);
    u.weakRight += Number(o.weak);
    u.strongCost += o.strongCost;
    u.weakCost += o.weakCost;
    units.set(key, u);
  }
  return [...units.values()];
}
