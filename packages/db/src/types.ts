import type { Guardrails, ModelAccess, Organization } from '@svc/core';

/** An organisation row as stored; `updatedAt` moves on every update. */
export interface OrganizationRecord extends Organization {
  updatedAt: Date;
}

/** Fields accepted when creating an organisation; omitted limits mean "unlimited" (null). */
export interface NewOrganization {
  name: string;
  /** Defaults to `free`. */
  plan?: string;
  /** Requests per minute; null = unlimited. */
  rpmLimit?: number | null;
  /** Tokens per minute; null = unlimited. */
  tpmLimit?: number | null;
  /** Spend cap per calendar month in USD; null = unlimited. */
  monthlyBudgetUsd?: number | null;
  /** Total token allowance; null = unlimited. */
  tokenQuota?: number | null;
  defaultIntelligenceMode?: Organization['defaultIntelligenceMode'];
  /** Only free or open-weight models may serve the organisation. Defaults to false. */
  freeModelsOnly?: boolean;
  /** Explicit `<provider>/<model>` names the catalog does not list are forwarded as named. Defaults to true. */
  passThroughModels?: boolean;
  /** How far memory recall reaches; defaults to `end_user`. */
  memoryScope?: Organization['memoryScope'];
  /** Models and aliases the organisation may use; null = any (the default). */
  modelAccess?: ModelAccess | null;
  /** Content checks on the organisation's chat requests, in order; null = none (the default). */
  guardrails?: Guardrails | null;
}

/** Any subset of the creation fields; `undefined` leaves a field as it is, `null` clears a limit. */
export type OrganizationPatch = Partial<NewOrganization>;

export type ApiKeyStatus = 'active' | 'revoked';

/** `master`: the operator's bootstrap key (SVC_MASTER_KEY); `standard`: every key issued. */
export type ApiKeyKind = 'standard' | 'master';

/** A stored API key. The secret itself is never stored, only its SHA-256 hex digest. */
export interface ApiKeyRecord {
  /** `key_...` identifier, safe to show and log. */
  id: string;
  orgId: string;
  name: string | null;
  keyHash: string;
  /** What listings and logs show: `sk-svc-` and the key's public identifier, or `master`; never part of the secret. */
  keyPrefix: string;
  kind: ApiKeyKind;
  /** Scope names as stored; unknown names are kept and grant nothing. */
  scopes: string[];
  status: ApiKeyStatus;
  /** Null = never expires. Expiry is not reflected in `status`; callers compare with now. */
  expiresAt: Date | null;
  /** Requests per minute for this key, on top of its organisation's limit; null = none of its own. */
  rpmLimit: number | null;
  /** Tokens per minute for this key, on top of its organisation's limit; null = none of its own. */
  tpmLimit: number | null;
  /** Spend cap of this key per calendar month, USD, on top of its organisation's budget; null = none of its own. */
  monthlyBudgetUsd: number | null;
  /** Models and aliases this key may use, on top of its organisation's lists; null = no lists of its own. */
  modelAccess: ModelAccess | null;
  /** This key's own content checks, run after its organisation's; null = none of its own. */
  guardrails: Guardrails | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface NewApiKey {
  id: string;
  orgId: string;
  name?: string | null;
  keyHash: string;
  keyPrefix: string;
  /** Default `standard`. */
  kind?: ApiKeyKind;
  scopes: readonly string[];
  expiresAt?: Date | null;
  rpmLimit?: number | null;
  tpmLimit?: number | null;
  monthlyBudgetUsd?: number | null;
  modelAccess?: ModelAccess | null;
  guardrails?: Guardrails | null;
}

/** What `keys.update` may change; an absent field is left as it is. */
export interface ApiKeyPatch {
  name?: string | null;
  rpmLimit?: number | null;
  tpmLimit?: number | null;
  monthlyBudgetUsd?: number | null;
  modelAccess?: ModelAccess | null;
  guardrails?: Guardrails | null;
}

/** One billed request in the usage ledger. Costs are USD, latency milliseconds. */
export interface UsageEvent {
  /** Idempotency key: inserting the same id twice keeps the first row. */
  requestId: string;
  orgId: string;
  keyId: string | null;
  model: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  costUsd: number;
  /** What the request would have cost on the baseline model (savings = baseline - cost). */
  baselineCostUsd: number;
  /** What the request would have cost at interactive prices when it was billed at a batch price (a line a provider's batch API answered); absent or null when billed at interactive prices. */
  interactiveCostUsd?: number | null;
  cacheHit: boolean;
  latencyMs: number;
  /** HTTP status returned to the client. */
  status: number;
  stream: boolean;
  /** The provider reported no usage: the tokens were counted by the gateway's tokenizer (absent = false). */
  usageEstimated?: boolean;
  /** A model without a known price served the request: its tokens are counted, `costUsd` holds only the priced part (absent = false). */
  unpriced?: boolean;
  /** The end user as the access log writes it (`endUserSubject`: `u:` and 32 hex digits), never the raw id; null when none was named. */
  endUser?: string | null;
  /** Memories the memory stage injected into the prompt; null when the stage did not run. */
  memoryInjected?: number | null;
  /** The request's metadata tags (e.g. `team`, `feature`) spend is attributed by; null when none. */
  tags?: Record<string, string> | null;
  createdAt: Date;
}

/** A ledger row to insert; `createdAt` defaults to the database's now(). */
export type NewUsageEvent = Omit<UsageEvent, 'createdAt' | 'keyId' | 'cachedTokens' | 'cacheHit' | 'stream' | 'usageEstimated' | 'unpriced'> & {
  unpriced?: boolean;
  keyId?: string | null;
  cachedTokens?: number;
  cacheHit?: boolean;
  stream?: boolean;
  usageEstimated?: boolean;
  createdAt?: Date;
};

/** Which ledger rows an export or a tag report reads; every field narrows it. */
export interface LedgerFilter {
  orgId?: string;
  keyId?: string;
  model?: string;
  /** Rows whose request carried metadata `key` (with `value` when given). */
  tag?: { key: string; value?: string };
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

/** Spend and usage of one value of a tag (null: requests without it). */
export interface TagSpend {
  value: string | null;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** What the rows would have cost at interactive prices (a batch line's interactive price, else its cost): `interactiveCostUsd - costUsd` is what batch prices saved. */
  interactiveCostUsd: number;
}

/** Totals over a window of the ledger. Tokens are counts, costs USD. */
export interface UsageSummary {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** prompt + completion. */
  totalTokens: number;
  costUsd: number;
  baselineCostUsd: number;
  cacheHits: number;
}

export interface UsageListOptions {
  /** Inclusive lower bound on `createdAt`. */
  since?: Date;
  /** Defaults to 100, capped at 1000. */
  limit?: number;
}

/** One routing decision from the decision log. */
export interface RoutingDecisionRecord {
  requestId: string;
  orgId: string;
  /** The model the client asked for (alias, `auto`, or a pinned id). */
  requestedModel: string | null;
  /** The model that answered (or the last one tried). */
  model: string;
  provider: string;
  tier: string | null;
  lane: string | null;
  /** What decided: e.g. `pinned`, `alias`, `auto`, `policy`, `sticky`. */
  source: string;
  taskFamily: string | null;
  intelligenceMode: string | null;
  /** Waterfall attempts in order, as JSON. */
  attempts: unknown[];
  /** Scored candidates, as JSON. */
  candidates: unknown[];
  /** e.g. `ok`, `error`, `error_after_first_byte`, `client_closed`. */
  outcome: string;
  /** Facts worth auditing, e.g. `{replicatedChoices: 2}` or `{usageEstimated: true}`. */
  details: Record<string, unknown>;
  latencyMs: number;
  createdAt: Date;
}

export type NewRoutingDecision = Omit<
  RoutingDecisionRecord,
  'createdAt' | 'requestedModel' | 'tier' | 'lane' | 'taskFamily' | 'intelligenceMode' | 'attempts' | 'candidates' | 'latencyMs' | 'details'
> & {
  details?: Record<string, unknown>;
  requestedModel?: string | null;
  tier?: string | null;
  lane?: string | null;
  taskFamily?: string | null;
  intelligenceMode?: string | null;
  attempts?: readonly unknown[];
  candidates?: readonly unknown[];
  latencyMs?: number;
  createdAt?: Date;
};

export interface DecisionListOptions {
  /** Inclusive lower bound on `createdAt`. */
  since?: Date;
  orgId?: string;
  model?: string;
  /** Capped at 1000. */
  limit: number;
}

/** Which decisions an aggregate reads: created in `[since, until)`, optionally of one org and one served model. */
export interface DecisionFilter {
  /** Inclusive lower bound on `createdAt`. */
  since: Date;
  /** Exclusive upper bound on `createdAt`; none by default. */
  until?: Date;
  /** An organisation id; one that is not a UUID matches nothing. */
  orgId?: string;
  /** The served model (`model` column), compared exactly. */
  model?: string;
}

/**
 * Outcome and latency figures of a set of decisions. Succeeded = outcome `ok`; failed = any
 * outcome but `ok` and `client_closed` (a client that left is neither). Latencies are of the
 * succeeded decisions only, in ms, and null when there are none.
 */
export interface DecisionOutcomeStats {
  decisions: number;
  succeeded: number;
  failed: number;
  /** Decisions whose waterfall made more than one attempt (skipped candidates included). */
  fallbacks: number;
  latencyMeanMs: number | null;
  /** Continuous (interpolated) percentiles, as PostgreSQL's `percentile_cont`. */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

/** A dimension of the decision mix: a column, or `details.complexity` for `complexity`. */
export type DecisionDimension = 'task_family' | 'complexity' | 'model' | 'tier' | 'outcome';

/** The decisions of one organisation that share one value of one dimension. */
export interface DecisionTally {
  orgId: string;
  dimension: DecisionDimension;
  /** Null where the decision has no value (e.g. rows older than `details.complexity`). */
  value: string | null;
  decisions: number;
  succeeded: number;
  failed: number;
  /** Sum of the succeeded decisions' latencies, ms (mean = latencySumMs / succeeded). */
  latencySumMs: number;
}

/**
 * Decisions that stated the same routing constraints (`details.constraints`, without the free
 * `preferenceDial`), reported the same `details.notApplied`, and were served by the same model,
 * tier and lane.
 */
export interface DecisionConstraintGroup {
  /** `details.constraints` as stored, minus `preferenceDial`; never empty. */
  constraints: Record<string, unknown>;
  /** `details.notApplied` as stored; null when absent. */
  notApplied: unknown;
  model: string;
  tier: string | null;
  lane: string | null;
  decisions: number;
  /** Request ids of the group, newest first, at most the sample size asked for. */
  sampleRequestIds: string[];
  /** `createdAt` of the group's newest decision, epoch ms. */
  newestAt: number;
}
