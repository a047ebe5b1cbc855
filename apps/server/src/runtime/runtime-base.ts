import type { Database } from '@svc/db';
import type { Kv } from '@svc/kv';
import type { Logger, Metrics } from '@svc/telemetry';
import type { Env } from './env.js';

/** What every part of the runtime is wired from: the validated environment, the stores, metrics and the logger. */
export interface RuntimeBase {
  env: Env;
  db: Database;
  kv: Kv;
  /** This deployment's prefix for its deployment-wide keys in the kv (`deploymentNamespace` of the store's id). */
  kvNamespace: string;
  /** Whether the store served under an earlier release (`servedBefore`), read once at start: an upgrade's one-time takeovers follow it. */
  servedBefore: boolean;
  metrics: Metrics;
  logger: Logger;
}
