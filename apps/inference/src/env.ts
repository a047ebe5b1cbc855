import type { Caller } from '@svc/core';
import type { AccessRecord, Exchange } from '@svc/pipeline';
import type { TraceSpan } from '@svc/telemetry';

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    startedAt: number;
    /** Filled by the pipeline at a chat request's ending; written by the access log (access-log.ts). */
    access: AccessRecord;
    /** The request's root span; undefined when tracing is off (and for probes). */
    trace: TraceSpan | undefined;
    /**
     * The pipeline's exchange, decided once by the route (`exchangeOf`): the error mapper and the
     * mode header read its mode instead of resolving it again. Undefined before the route built it.
     */
    exchange: Exchange | undefined;
  };
}
