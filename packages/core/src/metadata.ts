import type { GuardrailDecision } from './guardrails.js';
import type { IntelligenceMode, Lane, Tier } from './request.js';

/** The `svc_metadata` object of chat responses (spec §svc_metadata), in wire names. */
export interface SvcMetadata {
  request_id: string;
  routing_decision: string;
  provider: string;
  tier: Tier;
  provider_tier?: string | null;
  latency_ms: number;
  requested_model: string;
  decision_source: string | null;
  task_family: string | null;
  cost_usd: number | null;
  baseline_cost_usd: number | null;
  savings_usd: number | null;
  savings_pct: number | null;
  /** `svc` when a platform key served the request, `byok` for the organisation's own key. */
  cost_attribution: 'svc' | 'byok';
  estimated_cost_usd: number | null;
  /**
   * Present (true) when a model without a known price served the request (a passed-through or
   * discovered model of a provider without default prices): the tokens are counted, `cost_usd`,
   * `savings_usd`, `savings_pct` and `estimated_cost_usd` are null, never a silent zero.
   */
  cost_unpriced?: boolean;
  healer_report?: HealerReport | null;
  intelligence_mode: IntelligenceMode;
  lane?: Lane;
  model?: string;
  /** Complexity class the router used (`trivial`, `standard`, `complex`, `expert`). */
  task_complexity?: string;
  /** `svc.workflow_type`, stated or classified. */
  workflow_type?: string;
  /** Request fields accepted but not applied, e.g. `routing_override.force_provider`. */
  not_applied?: readonly string[];
  /** Present (true) on cache hits. */
  cache_hit?: boolean;
  cache_type?: 'exact' | 'semantic';
  /** Semantic hits: cosine similarity of the query to the cached prompt. */
  semantic_similarity?: number;
  /** Semantic hits: the request id of the cached question whose answer was served. */
  cached_request_id?: string;
  /** Present (true) when the provider reported no usage: tokens and cost were counted by the gateway's tokenizer. */
  usage_estimated?: boolean;
  /** The operator's degradation level (`light`, `heavy`) while one is in force. */
  degradation_level?: string;
  /** Optional stages this request skipped because of a feature flag or the degradation level. */
  shed_stages?: readonly string[];
  /** Mode `full`: the caller's stated facts injected into the prompt (count and tokens of the memory message). */
  memory?: MemoryReport;
  /**
   * Present when the caller has guardrails: each check's decision, in the order they ran (the
   * before-call checks, then the after-answer ones); the header `x-svc-guardrails` in full.
   */
  guardrails?: readonly GuardrailDecision[];
}

/** What memory added to a request's prompt (`svc_metadata.memory`, header `x-svc-memory-injected`). */
export interface MemoryReport {
  injected: number;
  tokens: number;
}

export interface HealerReport {
  original: string;
  healed: string;
  stage: number;
  confidence: number;
  healing_time_ms: number;
}
