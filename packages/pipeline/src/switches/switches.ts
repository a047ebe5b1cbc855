import type { SvcMetadata } from '@svc/core';
import type { VerificationPlan } from '@svc/healing';
import type { Metrics } from '@svc/telemetry';

/**
 * The operator's switches over the optional stages of a request: feature flags (each turns one
 * feature off everywhere) and the degradation level (sheds optional stages under load). The
 * request path reads one immutable snapshot, {@link Switches}, without awaiting anything.
 */

/** Feature flags, each wired to the code it gates. */
export const FLAG_KEYS = ['exact_cache', 'semantic_cache', 'memory', 'hedging', 'speculation', 'output_verification', 'router_exploration'] as const;
export type FlagKey = (typeof FLAG_KEYS)[number];

export const DEGRADATION_LEVELS = ['none', 'light', 'heavy'] as const;
export type DegradationLevel = (typeof DEGRADATION_LEVELS)[number];

/** What a request may skip: the flags' features plus the re-ask of output verification. */
export type OptionalStage = FlagKey | 'verification_reask';

/** What each feature flag gates, for the flag list. */
export const FLAG_DESCRIPTIONS: Readonly<Record<FlagKey, string>> = {
  exact_cache: 'exact answer cache (L0 in-process, L1 shared): lookups and stores',
  semantic_cache: 'semantic answer cache: lookups and stores',
  memory: 'organisation memory in intelligence mode full: recall into the prompt and storage of the exchange',
  hedging: 'hedged requests to the next candidate when the first is slow',
  speculation: 'svc.enable_speculation: drafts by a cheaper model',
  output_verification: 'JSON output verification, healing and re-asks',
  router_exploration: "the learned router's exploration bonus",
};

/**
 * The stages each degradation level sheds, on top of what the flags turn off. `light` drops what
 * costs extra provider calls or store round trips per request without changing answers; `heavy`
 * also drops the semantic cache (an embedding and a vector search per request) and every second
 * provider call (speculative drafts, verification re-asks). The exact cache stays: it sheds load.
 */
export const DEGRADATION_SHEDS: Readonly<Record<DegradationLevel, readonly OptionalStage[]>> = {
  none: [],
  light: ['memory', 'hedging'],
  heavy: ['memory', 'hedging', 'semantic_cache', 'speculation', 'verification_reask'],
};

/** Gauge value of each level (`svc_degradation_level`). */
export const DEGRADATION_GAUGE: Readonly<Record<DegradationLevel, number>> = { none: 0, light: 1, heavy: 2 };

export type ShedReason = 'flag' | 'degradation';

/** One consistent view of the switches; replaced whole on every change. */
export interface Switches {
  readonly level: DegradationLevel;
  readonly flags: Readonly<Record<FlagKey, boolean>>;
  /** Nothing is off: the request path's one check. */
  readonly normal: boolean;
  /** Why each stage that is off is off (a flag wins over the level). */
  readonly off: Readonly<Partial<Record<OptionalStage, ShedReason>>>;
}

export function buildSwitches(level: DegradationLevel, flags: Readonly<Record<FlagKey, boolean>>): Switches {
  const off: Partial<Record<OptionalStage, ShedReason>> = {};
  for (const stage of DEGRADATION_SHEDS[level]) off[stage] = 'degradation';
  for (const key of FLAG_KEYS) if (!flags[key]) off[key] = 'flag';
  let normal = true;
  for (const _ in off) normal = false;
  return Object.freeze({ level, flags: Object.freeze({ ...flags }), normal, off: Object.freeze(off) });
}

/** Every flag on. */
export const ALL_FLAGS_ON: Readonly<Record<FlagKey, boolean>> = Object.freeze(Object.fromEntries(FLAG_KEYS.map((key) => [key, true])) as Record<FlagKey, boolean>);

/** Level `none`, every flag on: what a gateway without switches runs. */
export const NORMAL: Switches = buildSwitches('none', ALL_FLAGS_ON);

/** The stages one request skipped; empty and never written to while the switches are normal. */
export type Shed = OptionalStage[];

/** Shared by every request while the switches are normal: `runs` never writes to it then. */
const nothingShed: Shed = [];

/** A fresh list to collect what this request skips, or the shared empty one when nothing can be. */
export function shedList(switches: Switches): Shed {
  return switches.normal ? nothingShed : [];
}

/** Whether `stage`, which would run for this request, may; when it may not it is added to `shed`. */
export function runs(switches: Switches, stage: OptionalStage, shed: Shed): boolean {
  if (isOn(switches, stage)) return true;
  shed.push(stage);
  return false;
}

/** Whether an optional stage is on, without reporting it shed (a look ahead; `runs` reports). */
export function isOn(switches: Switches, stage: OptionalStage): boolean {
  return switches.normal || switches.off[stage] === undefined;
}

/**
 * Output verification under the switches: the `output_verification` flag off skips it (reported
 * not applied when the request asked for it); `verification_reask` shed keeps the local check and
 * healing but never calls a model again.
 */
export function switchedVerification(plan: VerificationPlan, requested: boolean, switches: Switches, shed: Shed): VerificationPlan {
  if (switches.normal) return plan;
  if (plan.verify && !runs(switches, 'output_verification', shed)) return { verify: false, heal: false, reask: 'none', notApplied: requested };
  if (plan.reask !== 'none' && !runs(switches, 'verification_reask', shed)) return { ...plan, reask: 'none' };
  return plan;
}

/**
 * Makes the shedding visible in headers: `x-svc-degradation` while a level is in force,
 * `x-svc-shed-stages` naming what this request skipped; and counts each skipped stage in
 * `svc_stages_shed_total`. Once per request.
 */
export function reportShed(switches: Switches, shed: Shed, metrics: Metrics, headers: Record<string, string>): void {
  if (switches.normal) return;
  if (switches.level !== 'none') headers['x-svc-degradation'] = switches.level;
  if (shed.length === 0) return;
  headers['x-svc-shed-stages'] = shed.join(',');
  for (const stage of shed) metrics.stagesShed.series(stage, switches.off[stage] ?? 'flag').inc();
}

/** The same in `svc_metadata`: `degradation_level` and `shed_stages`. */
export function shedMetadata(switches: Switches, shed: Shed, metadata: SvcMetadata): void {
  if (switches.normal) return;
  if (switches.level !== 'none') metadata.degradation_level = switches.level;
  if (shed.length > 0) metadata.shed_stages = [...shed];
}
