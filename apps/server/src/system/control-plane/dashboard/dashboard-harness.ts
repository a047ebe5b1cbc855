import { createControlPlaneApp } from '@svc/control-plane';
import { parseEnv } from '../../../runtime/env.js';
import { type Runtime, createRuntime } from '../../../runtime/runtime.js';

const origin = 'http://localhost:8081';

export interface DashboardHarness {
  runtime: Runtime;
  app: ReturnType<typeof createControlPlaneApp>;
}

/** A runtime in memory (mock provider) and its control plane, for the dashboard's page tests. */
export async function startDashboard(): Promise<DashboardHarness> {
  const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  return { runtime, app: createControlPlaneApp({ ...runtime, maxBodyBytes: 1024 * 1024 }) };
}

/** A signed-in browser of a user with `role` in `orgId` (a session created directly, as login/complete would). */
export async function dashboardUser(harness: DashboardHarness, orgId: string, role: 'admin' | 'member') {
  const { runtime, app } = harness;
  const { user } = await runtime.dashboardAuth.accounts.create({ email: `${role}-${Math.random()}@example.com`, orgId, role });
  const { token, session } = await runtime.dashboardAuth.sessions.create({ userId: user.id, aal: 'aal2', method: 'passkey' });
  const cookie = `svc_session=${token}`;
  return {
    get: (path: string) => app.request(path, { headers: { cookie } }),
    post: (path: string, form: Record<string, string>, csrf: string | null = session.csrfToken) =>
      app.request(path, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form, ...(csrf === null ? {} : { _csrf: csrf }) }).toString(),
      }),
  };
}
