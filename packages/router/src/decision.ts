import type { ModelInfo } from '@svc/catalog';
import type { CascadeChoice } from './cascade.js';
import type { LearnedChoice } from './choice/route-choice.js';
import type { DecisionBase } from './pinned.js';
import type { Preferences } from './preferences.js';
import type { Item } from './quality/estimator.js';
import { type QualityReading, readingFields } from './quality/reading.js';
import { type Scored, explain } from './score.js';
import type { RouteDecision, ScoredCandidate } from './types.js';

/** What an alias decision is assembled from, once the scored models are in their final order. */
export interface DecisionParts {
  base: DecisionBase;
  /** Scored models, best first (sticky and learned moves applied). */
  scored: readonly Scored[];
  prefs: Preferences;
  /** The sticky model kept first. */
  sticky: boolean;
  /** Scored candidates kept on the decision. */
  keep: number;
  maxWaterfall: number;
  reading: QualityReading | undefined;
  item: Item | undefined;
  cascade: CascadeChoice | undefined;
  learned: LearnedChoice | undefined;
}

/** The first `max` scored models, then up to two free ones when the request allows a free fallback. */
export function waterfallOf(scored: readonly Scored[], prefs: Preferences, max: number): ModelInfo[] {
  const waterfall: ModelInfo[] = [];
  for (let i = 0; i < scored.length && i < max; i++) waterfall.push(scored[i]!.model);
  if (!prefs.allowFreeFallback || prefs.freeOnly) return waterfall;
  let added = 0;
  for (let i = max; i < scored.length && added < 2; i++) {
    if (scored[i]!.model.free) {
      waterfall.push(scored[i]!.model);
      added++;
    }
  }
  return waterfall;
}

/**
 * The decision of an alias request: its first model, waterfall, explained candidates and the
 * quality reading. One literal with the base's keys written out, in the order a spread of the base
 * gave (a pinned decision, `pinnedDecision`, has the same): `{ ...base, model, ... }` made V8 copy
 * the base on its slow path and add each later key to the copy one by one.
 */
export function assembleDecision(parts: DecisionParts): RouteDecision {
  const { scored, base } = parts;
  const first = scored[0]!.model;
  const candidates: ScoredCandidate[] = [];
  for (let i = 0; i < scored.length && i < parts.keep; i++) candidates.push(explain(scored[i]!));
  const reading = readingFields(parts.reading, parts.item);
  return {
    lane: base.lane,
    taskFamily: base.taskFamily,
    complexity: base.complexity,
    notApplied: base.notApplied,
    vector: base.vector,
    features: base.features,
    promptTokens: base.promptTokens,
    featureCount: base.featureCount,
    workflowType: base.workflowType,
    workflowStated: base.workflowStated,
    stickyKey: base.stickyKey,
    model: first,
    waterfall: waterfallOf(scored, parts.prefs, parts.maxWaterfall),
    tier: first.tier,
    source: parts.sticky ? 'Sticky' : 'Router',
    candidates,
    difficulty: reading.difficulty,
    qualityFallback: reading.qualityFallback,
    cascade: parts.cascade,
    learned: parts.learned,
  };
}
