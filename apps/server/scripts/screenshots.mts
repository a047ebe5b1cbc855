/**
 * Writes screenshots of the dashboard's main pages to docs/img/ (committed), from a real run:
 * both apps on the in-memory stores with the mock provider, an admin enrolled with a virtual
 * passkey in headless Chromium, a key created in the dashboard and some gateway traffic.
 *
 *   pnpm --filter @svc/server screenshots
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createKeyInBrowser, enrollInBrowser, launchDashboardBrowser, sendTraffic, signInInBrowser, startDashboardServer } from '../src/system/control-plane/dashboard/browser-harness.js';

const out = fileURLToPath(new URL('../../../docs/img/', import.meta.url));
await mkdir(out, { recursive: true });
const server = await startDashboardServer();
const browser = await launchDashboardBrowser();
try {
  const { page } = browser;
  const org = await server.admin('POST', '/v1/admin/orgs', { name: 'acme', monthly_budget_usd: 50, rpm_limit: 600 });
  await enrollInBrowser(server, page, { email: 'ada@acme.example', orgId: String(org.id), role: 'admin' });
  await page.getByTestId('sign-out').click();
  await page.waitForURL('**/dashboard/login');
  await page.fill('#email', 'ada@acme.example');
  await page.screenshot({ path: `${out}dashboard-login.png` });
  await signInInBrowser(server, page, 'ada@acme.example');

  const { secret } = await createKeyInBrowser(server, page, { name: 'backend production', orgId: String(org.id) });
  await page.screenshot({ path: `${out}dashboard-keys.png`, fullPage: true });

  const prompts = [
    'Say hello',
    'What is the capital of France?',
    'Summarise the plot of Hamlet in two sentences.',
    'Write a Python function that merges two sorted lists and explain its complexity step by step, with tests.',
    'Translate "good morning" into Spanish.',
    'Prove that the square root of two is irrational, then discuss why the proof generalises to any prime.',
  ];
  await sendTraffic(server, secret, [...prompts, ...prompts, ...prompts.slice(0, 3), 'Say hello', 'Say hello']);
  await server.runtime.learn.flush();

  await page.goto(`${server.origin}/dashboard?range=24h&org=${org.id}`);
  await page.screenshot({ path: `${out}dashboard-overview.png`, fullPage: true });
  await server.admin('POST', `/v1/slo?org_id=${org.id}`, { name: 'chat latency p95', metric: 'latency_p95_ms', threshold: 2000, target: 0.99, window_days: 7 });
  await server.admin('POST', `/v1/slo?org_id=${org.id}`, { name: 'availability', metric: 'availability', threshold: 0.999, target: 0.95, window_days: 30 });
  await page.goto(`${server.origin}/dashboard/requests?org=${org.id}`);
  await page.screenshot({ path: `${out}dashboard-requests.png`, fullPage: true });
  await page.locator('[data-testid="request-log"] tbody tr').last().getByRole('link', { name: 'decision →' }).click();
  await page.waitForURL('**/dashboard/requests/*');
  await page.screenshot({ path: `${out}dashboard-request-decision.png`, fullPage: true });
  await page.goto(`${server.origin}/dashboard/costs?range=24h&org=${org.id}`);
  await page.screenshot({ path: `${out}dashboard-costs.png`, fullPage: true });
  await page.goto(`${server.origin}/dashboard/alerts?org=${org.id}`);
  await page.screenshot({ path: `${out}dashboard-alerts.png`, fullPage: true });
  await page.goto(`${server.origin}/dashboard/org?org=${org.id}`);
  await page.screenshot({ path: `${out}dashboard-limits.png`, fullPage: true });
  await page.goto(`${server.origin}/dashboard/passkeys`);
  await page.screenshot({ path: `${out}dashboard-passkeys.png`, fullPage: true });
  console.log(`screenshots written to ${out}`);
} finally {
  await browser.close();
  await server.close();
}
