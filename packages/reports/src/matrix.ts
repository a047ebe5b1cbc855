import type { Capability, ModelInfo } from '@svc/catalog';
import type { OutcomeStats } from './gate.js';
import { ratio } from './ratio.js';

const everyCapability = { tools: true, vision: true, json: true, reasoning: true, audio: true } satisfies Record<Capability, true>;
/** Every capability the catalog knows, in matrix column order. */
export const capabilityColumns = Object.keys(everyCapability) as Capability[];

/** A circuit breaker as the resilience layer lists it (only non-closed breakers need be listed). */
export interface BreakerView {
  /** The model slug. */
  key: string;
  state: 'closed' | 'open' | 'half_open';
  consecutiveFailures: number;
  /** Epoch ms; null while closed. */
  openedAt: number | null;
  nextProbeAt: number | null;
}

/** When a model counts as healthy (deployment configuration, `SVC_MATRIX_*`). */
export interface MatrixSettings {
  /** Decisions a model needs in the window before its success rate is judged; below, `unknown`. */
  minDecisions: number;
  /** A success rate below this (0..1) makes the model `degraded`. */
  minSuccessRate: number;
  /** Length of the health window, hours. */
  windowHours: number;
}

export type ModelStatus = 'healthy' | 'degraded' | 'unavailable' | 'unknown';
export type StatusReason = 'breaker_open' | 'breaker_half_open' | 'success_rate_below_threshold' | 'too_few_decisions';

/** One row of the matrix: what the model can do, what it costs, and how it is doing. */
export interface MatrixModel {
  id: string;
  provider: string;
  family: string;
  tier: string;
  /** One column per known capability. */
  capabilities: Record<Capability, boolean>;
  context_window: number;
  max_output_tokens: number;
  /** USD per million tokens. */
  input_price_per_mtok: number;
  output_price_per_mtok: number;
  free: boolean;
  open_weight: boolean;
  /** In the `svc/auto-safety` pool. */
  safety_critical: boolean;
  breaker: { state: BreakerView['state']; consecutive_failures: number; opened_at: string | null; next_probe_at: string | null };
  /** Decisions served by (or last tried on) the model in the window. */
  decisions: number;
  /** Succeeded / (succeeded + failed), 0..1; null without any. */
  success_rate: number | null;
  /** Median latency of succeeded decisions, ms. */
  p50_latency_ms: number | null;
  status: ModelStatus;
  /** Why the status is not `healthy`; empty when it is. */
  reasons: StatusReason[];
}

/** `CapabilityMatrixHealth`. */
export interface CapabilityMatrix {
  /** When the matrix was computed, ISO-8601. */
  refreshed_at: string;
  window_hours: number;
  thresholds: { min_decisions: number; min_success_rate: number };
  totals: {
    models: number;
    healthy: number;
    degraded: number;
    unavailable: number;
    unknown: number;
    /** Decisions of the listed models in the window. */
    decisions: number;
    /** Models per capability. */
    capabilities: Record<Capability, number>;
  };
  /** Catalog order. */
  models: MatrixModel[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function status(reasons: readonly StatusReason[]): ModelStatus {
  if (reasons.includes('breaker_open')) return 'unavailable';
  if (reasons.includes('breaker_half_open') || reasons.includes('success_rate_below_threshold')) return 'degraded';
  if (reasons.includes('too_few_decisions')) return 'unknown';
  return 'healthy';
}

/** One model's row: its catalog facts, its breaker, its window's figures and the status they give. */
function matrixRow(m: ModelInfo, breaker: BreakerView | undefined, figures: OutcomeStats | undefined, settings: MatrixSettings): MatrixModel {
  const decisions = figures?.decisions ?? 0;
  const successRate = figures ? ratio(figures.succeeded, figures.succeeded + figures.failed) : null;
  const reasons: StatusReason[] = [];
  if (breaker?.state === 'open') reasons.push('breaker_open');
  if (breaker?.state === 'half_open') reasons.push('breaker_half_open');
  if (decisions < settings.minDecisions) reasons.push('too_few_decisions');
  else if (successRate !== null && successRate < settings.minSuccessRate) reasons.push('success_rate_below_threshold');
  return {
    id: m.id,
    provider: m.provider,
    family: m.family,
    tier: m.tier,
    capabilities: Object.fromEntries(capabilityColumns.map((c) => [c, m.capabilities.includes(c)])) as Record<Capability, boolean>,
    context_window: m.contextWindow,
    max_output_tokens: m.maxOutputTokens,
    input_price_per_mtok: m.inputPricePerMTok,
    output_price_per_mtok: m.outputPricePerMTok,
    free: m.free,
    open_weight: m.openWeight,
    safety_critical: m.safetyCritical === true,
    breaker: {
      state: breaker?.state ?? 'closed',
      consecutive_failures: breaker?.consecutiveFailures ?? 0,
      opened_at: iso(breaker?.openedAt ?? null),
      next_probe_at: iso(breaker?.nextProbeAt ?? null),
    },
    decisions,
    success_rate: successRate,
    p50_latency_ms: figures?.latencyP50Ms ?? null,
    status: status(reasons),
    reasons,
  };
}

/** Joins the chat models of the catalog with their breakers and their decisions of the window. */
export function capabilityMatrix(
  models: readonly ModelInfo[],
  breakers: readonly BreakerView[],
  stats: readonly (OutcomeStats & { model: string })[],
  settings: MatrixSettings,
  now: Date,
): CapabilityMatrix {
  const breakerOf = new Map(breakers.map((b) => [b.key, b]));
  const statsOf = new Map(stats.map((s) => [s.model, s]));
  const rows = models
    .filter((m) => m.kind === 'chat')
    .map((m) => matrixRow(m, breakerOf.get(m.id), statsOf.get(m.id), settings));
  const count = (s: ModelStatus) => rows.filter((r) => r.status === s).length;
  return {
    refreshed_at: now.toISOString(),
    window_hours: settings.windowHours,
    thresholds: { min_decisions: settings.minDecisions, min_success_rate: settings.minSuccessRate },
    totals: {
      models: rows.length,
      healthy: count('healthy'),
      degraded: count('degraded'),
      unavailable: count('unavailable'),
      unknown: count('unknown'),
      decisions: rows.reduce((sum, r) => sum + r.decisions, 0),
      capabilities: Object.fromEntries(capabilityColumns.map((c) => [c, rows.filter((r) => r.capabilities[c]).length])) as Record<Capability, number>,
    },
    models: rows,
  };
}
