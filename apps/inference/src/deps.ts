import type { Authenticator } from '@svc/auth';
import type { OrgRepository } from '@svc/db';
import type { Gateway } from '@svc/pipeline';
import type { Readiness } from '@svc/runtime';
import type { Logger, Metrics } from '@svc/telemetry';

/** What the inference app needs; a Runtime provides all of it. */
export interface InferenceDeps {
  gateway: Gateway;
  authenticator: Authenticator;
  /** The relational store: settings write the organisation's defaults. */
  db: { orgs: Pick<OrgRepository, 'update'> };
  metrics: Metrics;
  logger: Logger;
  readiness(): Promise<Readiness>;
  /** Largest accepted request body in bytes (413 above). */
  maxBodyBytes: number;
  /** SSE keep-alive comment interval while a stream is quiet. Default 15 s. */
  keepAliveMs?: number;
}
