import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardBrowser,
  type DashboardServer,
  chromiumAvailable,
  createKeyInBrowser,
  enrollInBrowser,
  launchDashboardBrowser,
  sendTraffic,
  signInInBrowser,
  startDashboardServer,
} from './browser-harness.js';

// CI installs Debian's chromium (.ci/run); elsewhere a missing browser skips, in CI it fails.
const run = chromiumAvailable() || process.env.CI === 'true';

describe.runIf(run)('dashboard in headless Chromium with a virtual passkey authenticator', () => {
  let server: DashboardServer;
  let browser: DashboardBrowser;
  let orgId: string;
  const email = 'ada@example.com';

  beforeAll(async () => {
    server = await startDashboardServer();
    browser = await launchDashboardBrowser();
    orgId = String((await server.admin('POST', '/v1/admin/orgs', { name: 'browser-org' })).id);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('registers a passkey from an enrollment link, signs out, and signs in with it at AAL2', async () => {
    const { page, context } = browser;
    await enrollInBrowser(server, page, { email, orgId, role: 'member' });
    // Only the passkeys page is reachable from the enrollment session.
    await page.goto(`${server.origin}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/passkeys');

    await page.getByTestId('sign-out').click();
    await page.waitForURL('**/dashboard/login');
    expect(await context.cookies(server.origin)).toEqual([]);

    await signInInBrowser(server, page, email);
    const [cookie] = await context.cookies(server.origin);
    // On http://localhost the cookie is not Secure (Chromium would keep it, Safari would not); HttpOnly and SameSite=Strict always.
    expect(cookie).toMatchObject({ name: 'svc_session', httpOnly: true, sameSite: 'Strict', secure: false, path: '/' });
    const session = await page.evaluate(async () => (await fetch('/v1/auth/session')).json());
    expect(session).toMatchObject({ aal: 'aal2', method: 'passkey', user: { email, role: 'member' } });
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('shows real figures after gateway traffic, and creates and revokes a key', async () => {
    const { page } = browser;
    const { secret } = await createKeyInBrowser(server, page, { name: 'browser test' });
    expect(secret).toMatch(/^sk-svc-/);

    const statuses = await sendTraffic(server, secret, ['one', 'two', 'three', 'one']);
    expect(statuses).toEqual([200, 200, 200, 200]);
    await server.runtime.learn.flush();
    await page.goto(`${server.origin}/dashboard?range=24h`);
    await expect.poll(async () => (await page.getByTestId('requests').textContent()) ?? '').toContain('4');
    expect(await page.getByTestId('cache-hit-rate').textContent()).toContain('25.0 %');
    expect(await page.locator('svg[aria-label="Requests"] circle').count()).toBe(24);
    expect(await page.getByText('Whole fleet').count()).toBe(0);

    await page.goto(`${server.origin}/dashboard/keys`);
    const keyId = await page.locator('tr[data-key-id]').first().getAttribute('data-key-id');
    await page.getByTestId(`revoke-${keyId}`).click();
    await page.waitForURL('**/dashboard/keys');
    expect(await page.locator(`tr[data-key-id="${keyId}"] .pill`).textContent()).toBe('revoked');
    expect(await sendTraffic(server, secret, ['after revocation'])).toEqual([401]);
  });

  it('shows real traffic in the request log (filters, decision detail), costs per key and model, and the SLOs', async () => {
    const { page } = browser;
    const { secret, keyId } = await createKeyInBrowser(server, page, { name: 'incident key' });
    expect(await sendTraffic(server, secret, ['alpha', 'beta', 'alpha'])).toEqual([200, 200, 200]);
    await server.runtime.learn.flush();

    await page.goto(`${server.origin}/dashboard/requests`);
    await page.selectOption('#filter-key', keyId);
    await page.getByTestId('apply-filters').click();
    await page.waitForURL(`**/dashboard/requests?*key=${keyId}*`);
    const rows = page.locator('[data-testid="request-log"] tbody tr');
    expect(await rows.count()).toBe(3);
    // Newest first: the repeated prompt was answered from the cache.
    expect(await rows.first().getByTestId('cache').textContent()).toBe('exact');
    const model = (await rows.last().locator('td').nth(1).textContent())!.split(' → ').pop()!;
    await page.fill('#filter-model', model);
    await page.getByTestId('apply-filters').click();
    await page.waitForURL('**/dashboard/requests?*model=*');
    expect(await rows.count()).toBe(3);
    await page.fill('#filter-model', 'no/such-model');
    await page.getByTestId('apply-filters').click();
    await page.waitForURL('**/dashboard/requests?*model=no*');
    expect(await rows.count()).toBe(0);

    await page.goto(`${server.origin}/dashboard/requests?key=${keyId}`);
    await rows.last().getByRole('link', { name: 'decision →' }).click();
    await page.waitForURL('**/dashboard/requests/*');
    expect(await page.getByTestId('decision-facts').textContent()).toContain(model);
    expect(await page.locator('[data-testid="attempts"] tbody tr').count()).toBeGreaterThan(0);

    await page.goto(`${server.origin}/dashboard/costs?range=24h`);
    expect(await page.locator(`[data-testid="cost-by-key"] tr[data-group="${keyId}"]`).textContent()).toContain('incident key');
    expect(await page.locator(`[data-testid="cost-by-model"] tr[data-group="${model}"]`).count()).toBe(1);

    await server.admin('POST', `/v1/slo?org_id=${orgId}`, { name: 'chat latency', metric: 'latency_p95_ms', threshold: 60_000, target: 0.9, window_days: 1 });
    await page.goto(`${server.origin}/dashboard/alerts`);
    expect(await page.locator('tr[data-slo="chat latency"]').textContent()).toContain('ok');
    expect(await page.getByTestId('no-firing').count()).toBe(1);

    // The overview's breakers name their window and count the period's requests from the ledger.
    await page.goto(`${server.origin}/dashboard?range=24h`);
    expect(await page.getByTestId('breaker-window').textContent()).toContain('last 30 s');
    expect(await page.locator(`tr[data-breaker="${model}"] [data-testid="breaker-period"]`).textContent()).toMatch(/\/ [1-9]/);
  });

  it('refuses a dashboard form post without the session CSRF token', async () => {
    const { page } = browser;
    const status = await page.evaluate(async () => (await fetch('/dashboard/keys', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' })).status);
    expect(status).toBe(403);
  });
});
