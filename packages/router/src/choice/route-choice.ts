import type { Scored } from '../score.js';
import type { ChoiceLearner } from './learner.js';
import type { LearnedChoice } from './learned-choice.js';
import { type JudgedGateSettings, judgeRouteChange } from './route-gate.js';

export type { LearnedChoice } from './learned-choice.js';

/**
 * The tolerance of a preference dial: how far below an even win rate (0.5) a cheaper model may
 * be (and how much worse a cheap choice may be than a pricier model it keeps its place against). Dial 1 (quality first): 0, only a model at least as good; dial 0 (cost first): 0.15; no
 * dial: 0.05.
 */
export function toleranceOfDial(dial: number | undefined): number {
  if (dial === undefined || !Number.isFinite(dial)) return 0.05;
  return 0.15 * (1 - Math.min(1, Math.max(0, dial)));
}

/**
 * Moves the learner's choice first among `scored` (already ordered, guard applied) when it chose
 * another model than the first (a cheaper one within the tolerance, or a pricier one judged better
 * than a first choice not proven within the tolerance of it) and, for a learned change (not an exploration), the regression gate promotes it
 * on judged pairs (`judgeRouteChange`: a move up is a route change like any other, promoted when
 * judged not worse, which a model judged better is). Returns what it did (a change the gate
 * refused is returned with `gate.status: 'refused'` and the order stands), or undefined when the
 * learner kept the first model.
 */
export function applyLearnedChoice(
  learner: ChoiceLearner,
  scored: Scored[],
  query: { orgId: string; taskKind: string; tolerance: number; gate: JudgedGateSettings | undefined },
): LearnedChoice | undefined {
  const first = scored[0]!;
  const choice = learner.choose({
    orgId: query.orgId,
    taskKind: query.taskKind,
    tolerance: query.tolerance,
    incumbent: { id: first.model.id, cost: first.costUsd },
    candidates: scored.slice(1).map((s) => ({ id: s.model.id, cost: s.costUsd })),
  });
  if (choice.reason === 'incumbent' || !choice.estimate) return undefined;
  const at = scored.findIndex((s) => s.model.id === choice.model);
  if (at <= 0) return undefined;
  const { winRate, lower, judged, feedback } = choice.estimate;
  const made: LearnedChoice = { incumbent: first.model.id, model: choice.model, reason: choice.reason, winRate, lower, samples: judged + feedback };
  if (choice.reason === 'learned' && query.gate) {
    const pair = { orgId: query.orgId, taskKind: query.taskKind, candidate: choice.model, incumbent: first.model.id };
    const counts = { ...learner.judgedCounts(pair), taskKind: query.taskKind, model: choice.model, against: first.model.id };
    const ruling = judgeRouteChange({ taskKind: query.taskKind, from: first.model.id, to: choice.model }, [counts], query.gate);
    made.gate = { status: ruling.status, reason: ruling.reason, judgedWinRate: ruling.judged.win_rate, judgedSamples: ruling.judged.samples, limit: ruling.limit };
    if (ruling.status === 'refused') return made;
  }
  scored.unshift(...scored.splice(at, 1));
  return made;
}
