import type { ChatRequest, OutputConfig } from '@svc/core';
import type { ToolGovernance } from '@svc/governance';
import type { CachePartition } from './cache-stage.js';
import type { RoutingDecision } from '../learn/decision-log.js';
import type { Exchange } from '../exchange.js';
import type { RequestMemory } from './memory-stage.js';
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
  decision: RoutingDecision;
  readonly spend: RequestSpend;
  /** The operator's flags and degradation level: one snapshot for the whole request. */
  readonly switches: Switches;
  readonly shed: Shed;
  /** Mode `full` with memory on: where the request's memory lives. */
  readonly memory: RequestMemory | undefined;
  /** Where its answer may be cached: the organisation, or only the memory scope it may hold facts of. */
  readonly partition: CachePartition;
}
