import { Authenticator, type DashboardAuth, MasterKeyError, createDashboardAuth } from '@svc/auth';
import { CachedGovernanceSource } from '@svc/governance';
import type { Logger } from '@svc/telemetry';
import { ConfigError } from './env.js';
import type { RuntimeBase } from './runtime-base.js';

/** Who may call and what their tools may do: API keys, dashboard sign-in and tool governance, started. */
export interface Access {
  authenticator: Authenticator;
  dashboardAuth: DashboardAuth;
  governance: CachedGovernanceSource;
}

/** Starts key verification (the master key ensured), dashboard sign-in and each organisation's tool governance. */
export async function startAccess({ env, db, kv, logger }: RuntimeBase): Promise<Access> {
  const authenticator = new Authenticator({
    store: db,
    bus: kv,
    kv,
    masterKeyGraceMs: env.SVC_MASTER_KEY_GRACE_SECS * 1000,
    onThrottleError: (error) => logger.warn({ err: error }, 'failed authentication not counted: the kv is unavailable'),
  });
  await authenticator.start();
  if (env.SVC_MASTER_KEY) await ensureMasterKey(authenticator, env.SVC_MASTER_KEY, logger);
  const dashboardAuth = createDashboardAuth({
    rp: env.dashboard,
    store: db,
    kv,
    sessionTtlMs: env.SVC_SESSION_TTL_SECS * 1000,
    onThrottleError: (error) => logger.warn({ err: error }, 'failed sign-in not counted: the kv is unavailable'),
    enrollmentTtlMs: env.SVC_ENROLLMENT_TTL_SECS * 1000,
  });
  const governance = new CachedGovernanceSource({
    load: async (orgId) => {
      const [tools, policy] = await Promise.all([db.toolGovernance.listTools(orgId), db.toolGovernance.getPolicy(orgId)]);
      return { tools, policy };
    },
    bus: kv,
    onError: (error, orgId) => logger.warn({ err: error, orgId }, 'tool governance unavailable; serving the last snapshot'),
  });
  await governance.start();
  return { authenticator, dashboardAuth, governance };
}

/** SVC_MASTER_KEY in force, each previous master key it superseded logged (by id, never the key); ConfigError when it was rotated away. */
async function ensureMasterKey(authenticator: Authenticator, secret: string, logger: Logger): Promise<void> {
  try {
    const outcome = await authenticator.ensureMasterKey(secret);
    for (const key of outcome.superseded) {
      if (key.until === null) logger.warn({ key_id: key.id }, 'previous master key revoked: SVC_MASTER_KEY was rotated');
      else logger.warn({ key_id: key.id, until: key.until.toISOString() }, 'previous master key works until the grace period (SVC_MASTER_KEY_GRACE_SECS) ends: SVC_MASTER_KEY was rotated');
    }
    if (outcome.graceUntil) logger.warn({ key_id: outcome.record.id, until: outcome.graceUntil.toISOString() }, 'SVC_MASTER_KEY was superseded by a newer master key and stops working when its grace period ends: set the current one');
  } catch (error) {
    if (error instanceof MasterKeyError) throw new ConfigError('SVC_MASTER_KEY', error.message, { cause: error });
    throw error;
  }
}
