import type { ChatResult } from './chat.js';
import type { Tier } from './request.js';

/** A stored answer, as both the exact and the semantic cache keep it. */
export interface CachedAnswer {
  /** The canonical answer as first served (choices and the original call's usage). */
  result: ChatResult;
  /** Slug (`provider/model`) of the model that produced it. */
  model: string;
  provider: string;
  tier: Tier;
  /** Epoch milliseconds when it was stored. */
  storedAt: number;
  /** The request whose answer this is (its `x-svc-request-id`): a semantic hit names it, so an operator can see what answered. */
  requestId?: string;
}

/** Where a hit came from: in-process exact (L0), shared exact (L1) or the semantic cache. */
export type CacheLayer = 'l0' | 'l1' | 'semantic';
