import type { ChatRequest, MemoryReport, OutputConfig } from '@svc/core';
import type { ToolGovernance } from '@svc/governance';
import type { CacheMiss, CachePartition } from './cache-stage.js';
import type { RoutingDecision } from '../learn/decision-log.js';
import type { Exchange } from '../exchange.js';
import type { TurnGuardrails } from './guardrail-stage.js';
import type { RecalledMemory } from '@svc/memory';
import type { MemoryPort, RequestMemory, Restore } from './memory-stage.js';
import type { Shed, Switches } from '../switches/switches.js';
import type { RequestSpend } from './request-spend.js';

/**
 * One chat request once it is admitted: what the edge decided (the exchange) and what the first
 * stage added to it. Every later stage reads it; only `decision` changes on the way (memory routes
 * again, and an option a stage cannot apply is named in its `notApplied`).
 */
export interface ChatTurn {
  readonly request: ChatRequest;
  readonly exchange: Exchange;
  /** The organisation's output verification settings. */
  readonly output: OutputConfig;
  /** Tool governance of the organisation, for requests that declare tools under an active policy. */
  readonly governance: ToolGovernance | undefined;
  /** The caller's guardrails when it has some: the after-answer checks run before the answer ends. */
  readonly guardrails: TurnGuardrails | undefined;
  decision: RoutingDecision;
  readonly spend: RequestSpend;
  /** The operator's flags and degradation level: one snapshot for the whole request. */
  readonly switches: Switches;
  readonly shed: Shed;
  /** Mode `full` with memory on: where the request's memory lives. */
  readonly memory: RequestMemory | undefined;
  /** Where its answer may be cached: the organisation, or only the memory scope it may hold facts of. */
  readonly partition: CachePartition;
  /** Set by the cache stage on a miss: where the complete answer is stored (undefined when it did not run). */
  miss: CacheMiss | undefined;
  /** Started by the cache stage on an exact miss, or by the outbound stage: what the outbound stage waits for. */
  outboundWork?: OutboundWork;
  /** Set by the outbound stage: the request as the providers will see it. */
  outbound: Outbound | undefined;
  /** True once a stream owns the turn's ending: the stream ends the spend when it ends. */
  streamOwnsEnding: boolean;
}

/** The request as the providers will see it, and what memory did to it. */
export interface Outbound {
  /** Redacted (`svc.redact_pii`) and, in full mode, with the recalled facts injected. */
  request: ChatRequest;
  /** Puts the redacted values back into the answer. */
  restore: Restore | undefined;
  /** Mode `full`: what memory injected (reported even when nothing was). */
  memory: MemoryReport | undefined;
  /** Stores what the end user stated (full mode; once the provider answered). */
  remember(): void;
}

/** The outbound stage's inputs, started before it runs (`startOutbound`) so they overlap the semantic lookup. */
export interface OutboundWork {
  /** The request with `svc.redact_pii` applied (itself when not asked). */
  sent: ChatRequest;
  restore: Restore | undefined;
  /** Mode `full` with memory on and a scope: the store recalled from. */
  memory: MemoryPort | undefined;
  /** The routing embedding (undefined when the router does not use one). Never rejects. */
  embedding: Promise<Float32Array | undefined> | undefined;
  /** Full mode: the recalled facts. Never rejects. */
  recalled: Promise<RecalledMemory[]> | undefined;
}
