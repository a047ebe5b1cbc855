import type { Aborter, Caller, IntelligenceMode } from '@svc/core';
import type { TraceSpan } from '@svc/telemetry';
import type { CacheDirective } from './chat/cache-stage.js';
import type { AccessRecord } from './learn/access-record.js';

/**
 * One request as the edge decided it, before any stage runs: who asks (the authenticated caller),
 * in which intelligence mode, for which end user, and how to reach back to the client. The app
 * resolves every header into it once; nothing in the pipeline reads a header again.
 */
export interface Exchange {
  caller: Caller;
  requestId: string;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** Aborted when the client goes away (and, when `abort` is given, when the request's deadline passes). */
  signal: AbortSignal;
  /**
   * The controller of `signal`, when the edge made one for this request alone: the request's
   * deadline then aborts it itself (the call stage's `createDeadline`), so a request has one
   * signal rather than a chain of them. Absent (a signal shared by many requests): the deadline
   * makes a controller of its own that follows `signal`.
   */
  abort?: Aborter;
  /**
   * The intelligence mode, resolved at the edge: `X-Intelligence-Mode` > body `svc.intelligence_mode`
   * > the organisation's default > `full` (`resolveIntelligenceMode`); voice requests escalate
   * `proxy` to `cache` (`resolveVoiceMode`).
   */
  mode: IntelligenceMode;
  /**
   * The end user the request is for (header `x-svc-user`, which wins over the body's `user` /
   * Anthropic `metadata.user_id`); absent: the request's own `user`, else none. Scopes memory.
   */
  endUser?: string;
  /** The request's `Cache-Control`: `no-cache` skips the answer cache's lookup, `no-store` the lookup and the store. */
  cacheDirective?: CacheDirective;
  /**
   * The caller's bound on the request, ms: header `x-svc-timeout-ms` > body `svc.timeout_ms`;
   * the call stage caps it by the server's (`requestTimeoutMs`).
   */
  timeoutMs?: number;
  /** Headers to forward upstream. */
  forwardHeaders?: Record<string, string>;
  /**
   * The body field that holds the conversation, as errors about it name it: `messages` (chat
   * completions, Messages; the default), `input` (Responses), `prompt` (legacy completions).
   */
  conversationParam?: string;
  /**
   * Background work (a batch line run by the gateway): admitted only while the organisation's and
   * key's RPM/TPM keep room for interactive requests (`BACKGROUND_RESERVE` in @svc/billing).
   */
  background?: boolean;
  /** The month budget was held for this request beforehand (a line of a batch holding its budget): counted, not checked again. */
  budgetHeld?: boolean;
  /** Tags the gateway adds to the request's own metadata in its ledger rows (a batch line's `batch_id`). */
  tags?: Readonly<Record<string, string>>;
  /** The request's access-log record, filled at its ending (access-record.ts). */
  access?: AccessRecord;
  /**
   * The request's root span, undefined when tracing is off: each stage (stage-spans.ts) and each
   * upstream attempt is a child span; an attempt's traceparent goes upstream.
   */
  trace?: TraceSpan;
}
