import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardBrowser,
  type DashboardServer,
  chromiumAvailable,
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
    await page.goto(`${server.origin}/dashboard/keys`);
    await page.fill('#key-name', 'browser test');
    await page.getByTestId('create-key').click();
    const secret = (await page.getByTestId('new-key-secret').textContent())!.trim();
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

  it('refuses a dashboard form post without the session CSRF token', async () => {
    const { page } = browser;
    const status = await page.evaluate(async () => (await fetch('/dashboard/keys', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' })).status);
    expect(status).toBe(403);
  });
});
