import type { Caller } from '@svc/core';
import type { AccessRecord } from '@svc/pipeline';
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
  };
}
