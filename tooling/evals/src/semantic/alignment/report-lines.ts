import { type Decision, gptCounts, type PairRow, type QqpPoint, qqpPoint } from './decisions.js';

/** The rows every decision is judged on. */
export interface Judged {
  calibration: PairRow[];
  heldOut: PairRow[];
  gptCache: PairRow[];
  nearMisses: PairRow[];
}

export interface Verdict {
  calibration: QqpPoint;
  heldOut: QqpPoint;
  gpt: { right: number; wrong: number };
  near: number;
}

/** A decision on all four sets; `gptRows` replaces GPTCache's rows (the naive baselines search without guard and margin). */
export function judge(sets: Judged, decide: Decision, gptRows = sets.gptCache): Verdict {
  return {
    calibration: qqpPoint(sets.calibration, decide),
    heldOut: qqpPoint(sets.heldOut, decide),
    gpt: gptCounts(gptRows, decide),
    near: sets.nearMisses.filter(decide).length,
  };
}

const at = (p: QqpPoint) => `${p.precision.toFixed(3)} @ ${(p.recall * 100).toFixed(1)}% (${p.hits})`;

/** Whether a verdict meets #17's three goals (QQP on the held-out half). */
export const meetsGoals = (v: Verdict): boolean => v.gpt.right >= 700 && v.gpt.wrong <= 10 && v.near === 0 && v.heldOut.precision >= 0.92 && v.heldOut.recall >= 0.2;

export const tableHead = [
  '| decision | GPTCache right / wrong | QQP calibration: precision @ recall (hits) | QQP held-out: precision @ recall (hits) | near misses | all three goals |',
  '|---|---|---|---|---|---|',
];

export const tableLine = (label: string, v: Verdict): string =>
  `| ${label} | ${v.gpt.right} / ${v.gpt.wrong} | ${at(v.calibration)} | ${at(v.heldOut)} | ${v.near} | ${meetsGoals(v) ? 'yes' : 'no'} |`;
