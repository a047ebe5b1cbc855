import { Authenticator, type DashboardAuth, createDashboardAuth } from '@svc/auth';
import { CachedGovernanceSource } from '@svc/governance';
import type { RuntimeBase } from './runtime-base.js';

/** Who may call and what their tools may do: API keys, dashboard sign-in and tool governance, started. */
export interface Access {
  authenticator: Authenticator;
  dashboardAuth: DashboardAuth;
  governance: CachedGovernanceSource;
}

/** Starts key verification (the master key ensured), dashboard sign-in and each organisation's tool governance. */
export async function startAccess({ env, db, kv, logger }: RuntimeBase): Promise<Access> {
  const authenticator = new Authenticator({ store: db, bus: kv });
  await authenticator.start();
  if (env.SVC_MASTER_KEY) await authenticator.ensureMasterKey(env.SVC_MASTER_KEY);
  const dashboardAuth = createDashboardAuth({
    rp: env.dashboard,
    store: db,
    kv,
    sessionTtlMs: env.SVC_SESSION_TTL_SECS * 1000,
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
