import type { ChatMessage, ChatParams } from './chat.js';

export type IntelligenceMode = 'proxy' | 'cache' | 'full';
export const intelligenceModes: readonly IntelligenceMode[] = ['proxy', 'cache', 'full'];

export type RoutingMode = 'auto' | 'fast' | 'balanced' | 'quality' | 'cost_optimized' | 'free_models_only';
export type Tier = 'T1' | 'T2' | 'T3';
export type Lane = 'smart' | 'turbo';
export type TaskComplexity = 'trivial' | 'standard' | 'complex' | 'expert';

/** Soft routing preferences (spec §routing_hints). */
export interface RoutingHints {
  mode?: RoutingMode;
  /** 0 pure speed .. 1 pure quality; already clamped. */
  preferenceDial?: number;
  preferLatency?: boolean;
  preferQuality?: boolean;
  maxCostPerToken?: number;
  maxLatencyMs?: number;
  maxTier?: 1 | 2 | 3;
  requiredCapabilities?: string[];
  taskComplexity?: TaskComplexity;
  chainRouting?: 'sticky' | 'mixed';
  allowFreeFallback?: boolean;
}

/** Hard routing overrides (spec §routing_override). */
export interface RoutingOverride {
  forceTier?: Tier;
  forceLane?: Lane;
  forceModel?: string;
  forceProvider?: string;
}

export type WorkflowType =
  | 'single_turn'
  | 'execution_task'
  | 'multi_step_conversational'
  | 'long_horizon_autonomous'
  | 'voice_simple'
  | 'voice_complex'
  | 'creative';

export type OutputVerification = 'none' | 'native' | 'schema' | 'cross_model';

/** The `svc` orchestration block (spec §svc orchestration block). */
export interface SvcOptions {
  workflowType?: WorkflowType;
  chainId?: string;
  conversationId?: string;
  planningMode?: 'preact' | 'planact';
  maxChainSteps?: number;
  chainTimeoutSecs?: number;
  reliabilityLevel?: 'standard' | 'high' | 'critical';
  enableMemory?: boolean;
  enableSpeculation?: boolean;
  enableHedging?: boolean;
  enableCache?: boolean;
  outputVerification?: OutputVerification;
  redactPii?: boolean;
  voiceMode?: string;
  intelligenceMode?: IntelligenceMode;
  /** The caller's bound on the whole request, ms (`svc.timeout_ms`; header `x-svc-timeout-ms` wins), capped by the server's. */
  timeoutMs?: number;
}

/** A decoded chat request, whatever protocol it arrived in. */
export interface ChatRequest extends ChatParams {
  /** The model string exactly as the caller sent it (alias, slug or upstream name). */
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  /** Number of choices, 1..8. */
  n: number;
  /** Whether a streamed answer ends with a usage chunk. */
  includeUsage: boolean;
  serviceTier?: string;
  /** `false` (OpenAI's `store: false`): the caller asked that the request be neither kept nor re-sent; shadow judging skips it. */
  store?: false;
  metadata?: Record<string, string>;
  routingHints?: RoutingHints;
  routingOverride?: RoutingOverride;
  svc?: SvcOptions;
  /**
   * Models to try, in order, once `model` (and its own same-family waterfall) failed: OpenRouter's
   * `models`. Each may be a slug, an upstream name or an alias.
   */
  models?: string[];
}
