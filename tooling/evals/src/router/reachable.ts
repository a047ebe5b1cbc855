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

/** Quality and cost against always-strong when each unit sends `shares[i]` of its requests to the cheaper model. */
export function served(units: readonly Unit[], shares: readonly number[]): { quality: number; cost: number } {
  let right = 0;
  let cost = 0;
  let strongRight = 0;
  let strongCost = 0;
  units.forEach((u, i) => {
    const s = shares[i] ?? 0;
    right += (1 - s) * u.strongRight + s * u.weakRight;
    cost += (1 - s) * u.strongCost + s * u.weakCost;
    strongRight += u.strongRight;
    strongCost += u.strongCost;
  });
  return { quality: right / strongRight, cost: cost / strongCost };
}

/** Each unit on the model that answers more of it right (the cheaper one when they tie; an empty unit stays on the strong one): 1 = cheaper. */
export function oracleShares(units: readonly Unit[]): number[] {
  return units.map((u) => (u.n > 0 && u.weakRight >= u.strongRight ? 1 : 0));
}

/** From the oracle, the units still on the strong model moved to the cheaper one, least loss per saving first, the last in part, while quality stays at least `floor`. */
export function floorShares(units: readonly Unit[], floor: number): number[] {
  const shares = oracleShares(units);
  const strongRight = units.reduce((s, u) => s + u.strongRight, 0);
  let budget = units.reduce((s, u, i) => s + (shares[i] === 1 ? u.weakRight : u.strongRight), 0) - floor * strongRight;
  const lossPerSaving = (u: Unit) => (u.strongRight - u.weakRight) / (u.strongCost - u.weakCost);
  const rest = units.map((u, i) => ({ u, i })).filter(({ i }) => shares[i] === 0 && units[i]!.n > 0).sort((a, b) => lossPerSaving(a.u) - lossPerSaving(b.u));
  for (const { u, i } of rest) {
    if (budget <= 0) break;
    const loss = u.strongRight - u.weakRight;
    shares[i] = Math.min(1, budget / loss);
    budget -= shares[i]! * loss;
  }
  return shares;
}

/** The oracle and the least cost at `floor` (e.g. 0.98) over `units`, against always-strong. */
export function reach(units: readonly Unit[], floor: number): Reach {
  return { oracle: served(units, oracleShares(units)), atFloor: served(units, floorShares(units, floor)) };
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
