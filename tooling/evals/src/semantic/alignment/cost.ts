import { align } from './align.js';
import type { Judged } from './report-lines.js';
import type { EvalSets } from './texts.js';
import type { TokenTable } from './token-cache.js';

/** CPU of one plain alignment (float32 token rows, unit length) of an asked question against one candidate, over QQP pairs. */
export function alignmentCost(table: TokenTable, judged: Judged, sets: EvalSets): string {
  const pairs = sets.qqp.slice(0, 2000).map((p) => [sets.asked(p.b), sets.asked(p.a)] as const);
  const side = (text: string) => {
    const i = table.index.get(text)!;
    return { states: table.states[i]!, weights: new Float64Array(table.ids[i]!.length).fill(1) };
  };
  const sides = pairs.map(([a, s]) => [side(a), side(s)] as const);
  const tokens = sides.reduce((sum, [a, s]) => sum + a.weights.length * s.weights.length, 0) / sides.length;
  let sink = 0;
  const cpu = process.cpuUsage();
  for (let round = 0; round < 3; round++) for (const [a, s] of sides) sink += align(a, s).f1;
  const used = process.cpuUsage(cpu);
  const us = (used.user + used.system) / (3 * sides.length);
  const gated = judged.calibration.filter((r) => r.gate).length / judged.calibration.length;
  return `Alignment cost: ${us.toFixed(1)} us CPU per candidate (float32, ${tokens.toFixed(0)} token pairs on average, mean of ${3 * sides.length}; checksum ${sink.toFixed(0)}); ${(gated * 100).toFixed(0)}% of QQP's calibration pairs pass the shipped gate.`;
}
