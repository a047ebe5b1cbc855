import type { Caller } from '@svc/core';
import type { UsageEvent } from './learn-queue.js';

/**
 * One priced call that is part of a request, or of a unit endpoint's answer, as its ledger row
 * needs it; `requestId` is the request's own, or it with a part suffix (`:shadow`, `:judge:1`).
 */
export type PartCall = Pick<UsageEvent, 'requestId' | 'model' | 'provider' | 'promptTokens' | 'completionTokens' | 'cachedTokens' | 'costUsd' | 'unpriced' | 'latencyMs' | 'tags' | 'interactiveCostUsd'> & {
  caller: Caller;
};

/**
 * The usage-ledger row of a call that claims no savings (its baseline is its own cost: the
 * savings baseline is a chat model's price, which embeddings, images, audio, shadow and judge
 * calls are not measured against), answered 200, not from the cache, not streamed.
 */
export function noSavingsUsage(call: PartCall): UsageEvent {
  const { caller, unpriced, tags, ...row } = call;
  return {
    ...row,
    orgId: caller.org.id,
    keyId: caller.keyId,
    baselineCostUsd: call.costUsd,
    cacheHit: false,
    status: 200,
    stream: false,
    ...(unpriced ? { unpriced: true } : {}),
    ...(tags === undefined ? {} : { tags }),
    createdAt: new Date(),
  };
}

/** What the ledger row of a request that called no model holds (an MCP tool call, a refusal before the call). */
export type UncalledRequest = Pick<UsageEvent, 'requestId' | 'orgId' | 'keyId' | 'model' | 'provider' | 'latencyMs' | 'status'> &
  Partial<Pick<UsageEvent, 'stream' | 'endUser' | 'tags'>>;

/** The usage-ledger row of a request no model answered: no tokens, no cost, no savings claimed. */
export function uncalledUsage(request: UncalledRequest): UsageEvent {
  return {
    stream: false,
    ...request,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    costUsd: 0,
    baselineCostUsd: 0,
    cacheHit: false,
    createdAt: new Date(),
  };
}
