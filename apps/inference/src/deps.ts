import type { Authenticator } from '@svc/auth';
import type { Gateway } from '@svc/pipeline';
import type { Readiness } from '@svc/runtime';
import type { Logger, Metrics } from '@svc/telemetry';

/** What the inference app needs; a Runtime provides all of it. */
export interface InferenceDeps {
  gateway: Gateway;
  authenticator: Authenticator;
  metrics: Metrics;
  logger: Logger;
  readiness(): Promise<Readiness>;
  /** Largest accepted request body in bytes (413 above). */
  maxBodyBytes: number;
  /** SSE keep-alive comment interval while a stream is quiet. Default 15 s. */
  keepAliveMs?: number;
}
