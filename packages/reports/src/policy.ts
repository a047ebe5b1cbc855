import type { Catalog } from '@svc/catalog';
import { parseTier } from '@svc/router';
import { ratio } from './ratio.js';

/**
 * Decisions that stated the same constraints and were served alike (the shape of the decision
 * log's `constraintGroups`). `constraints` is the pipeline's `details.constraints`: only the keys
 * the request set among `mode`, `maxTier` (1|2|3), `taskComplexity`, `freeModelsOnly`,
 * `forceTier`, `forceLane`, `forceModel`, `forceProvider`.
 */
export interface ConstraintGroup {
  constraints: Record<string, unknown>;
  /** `details.notApplied`: the parameters routing accepted but did not apply. */
  notApplied: unknown;
  model: string;
  tier: string | null;
  lane: string | null;
  decisions: number;
  /** Request ids, newest first. */
  sampleRequestIds: readonly string[];
  /** The group's newest decision, epoch ms. */
  newestAt: number;
}

/** The hard constraints whose compliance the report measures, in report order. */
export type ConstraintName = 'max_tier' | 'force_tier' | 'force_lane' | 'force_model' | 'free_models_only' | 'force_provider';
export const constraintNames: readonly ConstraintName[] = ['max_tier', 'force_tier', 'force_lane', 'force_model', 'free_models_only', 'force_provider'];

/**
 * `compliant`/`violation`; `unknown` when the log cannot tell (a model no longer in the active
 * catalog, a value that is not a tier); `superseded` for `max_tier` when `force_tier` also applies
 * (the override wins by design).
 */
export type Verdict = 'compliant' | 'violation' | 'unknown' | 'superseded';

export interface ConstraintCompliance {
  constraint: ConstraintName;
  /** Decisions that set this constraint. */
  decisions: number;
  compliant: number;
  violations: number;
  unknown: number;
  /** `max_tier` only: decisions where `force_tier` took precedence (not judged). */
  superseded: number;
  /** compliant / (compliant + violations); null when nothing was judged. */
  compliance_rate: number | null;
  /** Request ids of violating decisions, the most recently active combinations first. */
  violating_request_ids: string[];
}

/** `PolicyComplianceStats` without the window. */
export interface PolicyCompliance {
  /** Decisions in the window, constrained or not. */
  decisions: number;
  /** Decisions that set at least one of the hard constraints. */
  constrained_decisions: number;
  /** Constrained decisions with no violation and nothing unknown. */
  compliant_decisions: number;
  /** Constrained decisions with at least one violation. */
  violating_decisions: number;
  /** Constrained decisions without a violation but with a constraint the log cannot judge. */
  unknown_decisions: number;
  /** compliant_decisions / (compliant_decisions + violating_decisions); null when none was judged. */
  compliance_rate: number | null;
  constraints: ConstraintCompliance[];
}

const FORCE_PROVIDER_NOT_APPLIED = 'routing_override.force_provider';

function tierNumber(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const tier = parseTier(String(value));
  return tier === undefined ? undefined : Number(tier.slice(1));
}

/** Every hard constraint the group stated, with its verdict. */
export function judge(group: ConstraintGroup, catalog: Pick<Catalog, 'get' | 'resolve'>): Map<ConstraintName, Verdict> {
  const c = group.constraints;
  const verdicts = new Map<ConstraintName, Verdict>();
  const served = catalog.get(group.model);
  const servedTier = tierNumber(group.tier ?? served?.tier);
  const tierVerdict = (ok: (tier: number) => boolean): Verdict => (servedTier === undefined ? 'unknown' : ok(servedTier) ? 'compliant' : 'violation');
  if (c.maxTier !== undefined) {
    const cap = tierNumber(c.maxTier);
    // max_tier N admits tiers N..3 (T1 is the most capable and the dearest).
    verdicts.set('max_tier', c.forceTier !== undefined ? 'superseded' : cap === undefined ? 'unknown' : tierVerdict((tier) => tier >= cap));
  }
  if (c.forceTier !== undefined) {
    const forced = tierNumber(c.forceTier);
    verdicts.set('force_tier', forced === undefined ? 'unknown' : tierVerdict((tier) => tier === forced));
  }
  if (c.forceLane !== undefined) {
    verdicts.set('force_lane', group.lane === null ? 'unknown' : group.lane === c.forceLane ? 'compliant' : 'violation');
  }
  if (c.forceModel !== undefined) {
    const wanted = typeof c.forceModel === 'string' ? c.forceModel : '';
    const forced = catalog.resolve(wanted);
    // Honoured when served as asked, or by the same family on another provider (the waterfall's fallback).
    if (group.model === wanted || group.model === forced?.id) verdicts.set('force_model', 'compliant');
    else if (!forced || !served) verdicts.set('force_model', 'unknown');
    else verdicts.set('force_model', served.family === forced.family ? 'compliant' : 'violation');
  }
  if (c.freeModelsOnly === true || c.mode === 'free_models_only') {
    verdicts.set('free_models_only', served === undefined ? 'unknown' : served.free ? 'compliant' : 'violation');
  }
  if (c.forceProvider !== undefined) {
    const reported = Array.isArray(group.notApplied) && group.notApplied.includes(FORCE_PROVIDER_NOT_APPLIED);
    verdicts.set('force_provider', reported ? 'compliant' : 'violation');
  }
  return verdicts;
}

/**
 * How often the hard routing constraints were honoured. `decisions` is the window's decision
 * count; `sampleSize` bounds each constraint's violating request ids.
 */
export function policyCompliance(
  groups: readonly ConstraintGroup[],
  catalog: Pick<Catalog, 'get' | 'resolve'>,
  options: { decisions: number; sampleSize: number },
): PolicyCompliance {
  const stats = new Map(
    constraintNames.map((constraint) => [constraint, { constraint, decisions: 0, compliant: 0, violations: 0, unknown: 0, superseded: 0, compliance_rate: null, violating_request_ids: [] } as ConstraintCompliance]),
  );
  const totals = { constrained: 0, compliant: 0, violating: 0, unknown: 0 };
  const byRecency = [...groups].sort((a, b) => b.newestAt - a.newestAt);
  for (const group of byRecency) {
    const verdicts = judge(group, catalog);
    if (verdicts.size === 0) continue;
    totals.constrained += group.decisions;
    const all = [...verdicts.values()];
    if (all.includes('violation')) totals.violating += group.decisions;
    else if (all.includes('unknown')) totals.unknown += group.decisions;
    else totals.compliant += group.decisions;
    for (const [constraint, verdict] of verdicts) {
      const entry = stats.get(constraint)!;
      entry.decisions += group.decisions;
      if (verdict === 'compliant') entry.compliant += group.decisions;
      else if (verdict === 'unknown') entry.unknown += group.decisions;
      else if (verdict === 'superseded') entry.superseded += group.decisions;
      else {
        entry.violations += group.decisions;
        const room = options.sampleSize - entry.violating_request_ids.length;
        if (room > 0) entry.violating_request_ids.push(...group.sampleRequestIds.slice(0, room));
      }
    }
  }
  const constraints = [...stats.values()].map((entry) => ({ ...entry, compliance_rate: ratio(entry.compliant, entry.compliant + entry.violations) }));
  return {
    decisions: options.decisions,
    constrained_decisions: totals.constrained,
    compliant_decisions: totals.compliant,
    violating_decisions: totals.violating,
    unknown_decisions: totals.unknown,
    compliance_rate: ratio(totals.compliant, totals.compliant + totals.violating),
    constraints,
  };
}
