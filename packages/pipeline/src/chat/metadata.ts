import type { ModelInfo } from '@svc/catalog';
import { deprecationHeaders } from './deprecation-headers.js';
import type { IntelligenceMode, MemoryReport, SvcMetadata, Usage } from '@svc/core';
import type { Cost } from '@svc/billing';
import type { RoutingDecision } from '../learn/decision-log.js';

export interface MetadataInput {
  requestId: string;
  requestedModel: string;
  decision: RoutingDecision;
  served: ModelInfo;
  mode: IntelligenceMode;
  latencyMs: number;
  cost: Cost | undefined;
  /** The organisation's own provider key served the answer. */
  byok?: boolean;
  /** Mode `full`: what memory injected (reported even when nothing was). */
  memory?: MemoryReport | undefined;
}

export function routingDecisionLabel(decision: RoutingDecision, served: ModelInfo): string {
  const fallback = served.id === decision.model.id ? '' : ` (fallback from ${decision.model.id})`;
  return `${decision.lane} lane via ${decision.source}: ${served.id}${fallback}`;
}

/** `svc_metadata` of a chat answer. */
export function buildSvcMetadata(input: MetadataInput): SvcMetadata {
  const { decision } = input;
  // An unpriced bill reports its baseline only: the cost is unknown, never zero.
  const unpriced = input.cost?.unpriced === true;
  const cost = unpriced ? undefined : input.cost;
  const metadata: SvcMetadata = {
    request_id: input.requestId,
    routing_decision: routingDecisionLabel(input.decision, input.served),
    provider: input.served.provider,
    tier: input.served.tier,
    provider_tier: null,
    latency_ms: input.latencyMs,
    requested_model: input.requestedModel,
    decision_source: input.decision.source,
    task_family: input.decision.taskFamily,
    cost_usd: cost?.costUsd ?? null,
    baseline_cost_usd: input.cost?.baselineCostUsd ?? null,
    savings_usd: cost?.savingsUsd ?? null,
    savings_pct: cost?.savingsPct ?? null,
    cost_attribution: input.byok ? 'byok' : 'svc',
    estimated_cost_usd: cost?.costUsd ?? null,
    intelligence_mode: input.mode,
    lane: decision.lane,
    model: input.served.id,
    task_complexity: decision.complexity,
    workflow_type: decision.workflowType,
  };
  if (unpriced) metadata.cost_unpriced = true;
  if (decision.notApplied.length > 0) metadata.not_applied = decision.notApplied;
  if (input.memory) metadata.memory = input.memory;
  return metadata;
}

/** The header reporting what memory injected (mode `full` only). */
export function memoryHeader(memory: MemoryReport | undefined): Record<string, string> {
  return memory ? { 'x-svc-memory-injected': String(memory.injected) } : {};
}

/** Headers known before the answer: sent on streams too. A retiring model's deprecation headers with them. */
export function routingHeaders(requestId: string, orgId: string, decision: RoutingDecision, served: ModelInfo, mode: IntelligenceMode): Record<string, string> {
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    'x-svc-request-id': requestId,
    'x-svc-org-id': orgId,
    'x-svc-model': served.id,
    'x-svc-provider': served.provider,
    'x-svc-tier-used': served.tier,
    'x-svc-lane-used': decision.lane,
    'x-svc-intelligence-mode': mode,
  };
  return served.retiresAt === undefined ? headers : Object.assign(headers, deprecationHeaders(served));
}

/** Headers of a complete non-stream answer. */
export function answerHeaders(usage: Usage | undefined, cost: Cost | undefined, breakdown: Record<string, number>, auditId: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-svc-cache-hit': 'false',
    'x-svc-speculation-accepted': '0',
    'x-svc-latency-breakdown': JSON.stringify(breakdown),
    'x-svc-audit-id': auditId,
  };
  if (usage) {
    headers['x-svc-input-tokens'] = String(usage.promptTokens);
    headers['x-svc-output-tokens'] = String(usage.completionTokens);
  }
  if (cost) headers['x-svc-cost-usd'] = costHeader(cost);
  return headers;
}

/** `x-svc-cost-usd`: the cost in USD, or `unpriced` when a model without a known price served (never a silent 0). */
export function costHeader(cost: Cost): string {
  return cost.unpriced ? 'unpriced' : String(cost.costUsd);
}
