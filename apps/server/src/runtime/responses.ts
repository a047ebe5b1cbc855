import type { Database, ResponseRepository } from '@svc/db';
import type { Logger } from '@svc/telemetry';
import type { Env } from './env.js';

/** How often expired responses are deleted (an expired one is never served, swept or not). */
const SWEEP_MS = 3_600_000;

/** The Responses API's kept answers (`store`): the rows and how long they live. */
export interface KeptResponses {
  store: ResponseRepository;
  /** SVC_RESPONSES_TTL_DAYS: a kept response expires this many days after it was created. */
  ttlDays: number;
}

/** Kept responses over `db.responses`, with an hourly sweep of the expired ones; `stop` ends the sweep. */
export function keepResponses(env: Env, db: Database, logger: Logger): KeptResponses & { stop(): void } {
  const sweep = () => {
    db.responses.deleteExpired().catch((error: unknown) => logger.warn({ err: error }, 'stored responses: the expiry sweep failed'));
  };
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  sweep();
  return { store: db.responses, ttlDays: env.SVC_RESPONSES_TTL_DAYS, stop: () => clearInterval(timer) };
}
