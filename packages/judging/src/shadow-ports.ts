import type { ModelInfo } from '@svc/catalog';
import type { Caller, ChatRequest, IntelligenceMode } from '@svc/core';

/** A request the gateway answered, offered for shadow judging after its answer went out. */
export interface ShadowOffer {
  caller: Caller;
  requestId: string;
  mode: IntelligenceMode;
  cacheDirective?: 'no-cache' | 'no-store' | undefined;
  /** The request as the client sent it (before memory was injected). */
  request: ChatRequest;
  /** The served model and its answer's text. */
  served: ModelInfo;
  answer: string;
  /** The answer's completion tokens: bounds the candidate's `max_tokens`. */
  completionTokens: number;
  taskKind: string | null;
}

/** Where a judged pair can still change a request's routing choice (`ShadowJudgingSettings.focus`). */
export interface ShadowFocus {
  /** Of the request's eligible candidates, those the learner is still unsure about; none: the choice is settled. */
  open: readonly ModelInfo[];
  /** Pairs the learner holds for the request's task kind between the served model and those candidates. */
  judged: number;
}

/**
 * Where the focused sampler spends its credit first (docs/routing.md, "Up-moves sooner"): the
 * router's judging order over the organisation's task kinds.
 */
export interface ShadowOrder {
  /** Counts an offer that could be judged (its task kind's traffic), with its eligible candidates. */
  seen(offer: ShadowOffer, candidates: readonly ModelInfo[]): void;
  /** True when no other task kind of the organisation ranks before the offer's: its open choice is judged first. */
  first(offer: ShadowOffer, candidates: readonly ModelInfo[]): boolean;
}

/** Which ledger category a call is billed in: `<request id>:shadow`, `<request id>:judge:1|2`. */
export type ShadowPart = 'shadow' | 'judge:1' | 'judge:2';

export interface ShadowCall {
  caller: Caller;
  requestId: string;
  part: ShadowPart;
  model: ModelInfo;
  request: ChatRequest;
}

export interface ShadowAnswer {
  text: string;
  costUsd: number;
}

/**
 * How shadow judging reaches models: only those the caller may use (its organisation's and its
 * key's model access), through the organisation's own keys before the platform's, each call
 * billed to the organisation as its own ledger row.
 */
export interface ShadowModels {
  /** The chat model `slug` names, when the caller may use it; undefined otherwise. */
  permitted(caller: Caller, slug: string): ModelInfo | undefined;
  /** The chat models the caller may use that are cheaper than `served` in its pool, costliest first. */
  cheaperThan(caller: Caller, served: ModelInfo): readonly ModelInfo[];
  /** The chat models the caller may use that are pricier than `served` in its pool, cheapest first. */
  pricierThan(caller: Caller, served: ModelInfo): readonly ModelInfo[];
  /** One call (no fallback, no retry), billed as `<requestId>:<part>`. Rejects when it fails. */
  call(call: ShadowCall): Promise<ShadowAnswer>;
}
