import type { Scored } from '../score.js';
import type { ChoiceLearner } from './learner.js';
import type { LearnedChoice } from './learned-choice.js';

export type { LearnedChoice } from './learned-choice.js';

/**
 * The tolerance of a preference dial: how far below an even win rate (0.5) a cheaper model may
 * be. Dial 1 (quality first): 0, only a model at least as good; dial 0 (cost first): 0.15; no
 * dial: 0.05.
 */
export function toleranceOfDial(dial: number | undefined): number {
  if (dial === undefined || !Number.isFinite(dial)) return 0.05;
  return 0.15 * (1 - Math.min(1, Math.max(0, dial)));
}

/**
 * Moves the learner's choice first among `scored` (already ordered, guard applied) when it chose
 * a cheaper model than the first; returns what it did, or undefined when the order stands.
 */
export function applyLearnedChoice(learner: ChoiceLearner, scored: Scored[], query: { orgId: string; taskKind: string; tolerance: number }): LearnedChoice | undefined {
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
  scored.unshift(...scored.splice(at, 1));
  const { winRate, lower, judged, feedback } = choice.estimate;
  return { incumbent: first.model.id, model: choice.model, reason: choice.reason, winRate, lower, samples: judged + feedback };
}
