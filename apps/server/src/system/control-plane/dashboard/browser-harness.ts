import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createInferenceApp } from '@svc/inference';
import { type Runtime, createRuntime } from '../../../runtime/runtime.js';
import { parseEnv } from '../../../runtime/env.js';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { createControlPlaneApp } from '@svc/control-plane';

/** Debian's chromium (`.ci/run` installs it); playwright-core drives it and downloads nothing. */
export const chromiumPath = '/usr/bin/chromium';
export const chromiumAvailable = () => existsSync(chromiumPath);

export const masterKey = 'sk-svc-dashboard-browser-master-key';

/** Both apps on real ports of 127.0.0.1, the dashboard origin http://localhost:<control port> (a WebAuthn RP id must be a domain). */
export interface DashboardServer {
  runtime: Runtime;
  origin: string;
  inferenceUrl: string;
  /** Calls the admin API with the master key. */
  admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function listen(fetch: (request: Request) => Response | Promise<Response>, port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }, () => resolve(server as Server)) as Server;
  });
}

export async function startDashboardServer(env: Record<string, string> = {}): Promise<DashboardServer> {
  const [controlPort, inferencePort] = [await freePort(), await freePort()];
  const origin = `http://localhost:${controlPort}`;
  const runtime = await createRuntime(
    parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: masterKey, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', CONTROL_PORT: String(controlPort), SVC_DASHBOARD_ORIGIN: origin, SVC_LEARN_FLUSH_MS: '100', ...env }),
  );
  const servers = [
    await listen(createControlPlaneApp({ ...runtime, maxBodyBytes: 1024 * 1024 }).fetch, controlPort),
    await listen(createInferenceApp({ ...runtime, maxBodyBytes: 1024 * 1024 }).fetch, inferencePort),
  ];
  return {
    runtime,
    origin,
    inferenceUrl: `http://127.0.0.1:${inferencePort}`,
    async admin(method, path, body) {
      const response = await fetch(`${origin.replace('localhost', '127.0.0.1')}${path}`, {
        method,
        headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, unknown>;
    },
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await runtime.close();
    },
  };
}

export interface DashboardBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * One headless Chromium with a fresh profile and a CDP virtual authenticator (CTAP2, internal
 * transport, resident keys, user verification that always succeeds) on its page.
 */
export async function launchDashboardBrowser(): Promise<DashboardBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Enrolls a new dashboard user in the browser: opens its enrollment link and registers a passkey. */
export async function enrollInBrowser(server: DashboardServer, page: Page, input: { email: string; orgId: string; role: 'admin' | 'member' }): Promise<void> {
  const created = await server.admin('POST', '/v1/admin/users', { email: input.email, org_id: input.orgId, role: input.role });
  await page.goto(String(created.enrollment_url));
  await page.getByTestId('enroll').click();
  await page.waitForURL('**/dashboard/passkeys');
  await page.fill('#name', 'Virtual authenticator');
  await page.getByTestId('register-passkey').click();
  await page.getByTestId('passkeys').getByText('Virtual authenticator').waitFor();
}

/** Signs in on the sign-in page with the passkey of the virtual authenticator. */
export async function signInInBrowser(server: DashboardServer, page: Page, email: string): Promise<void> {
  await page.goto(`${server.origin}/dashboard/login`);
  await page.fill('#email', email);
  await page.getByTestId('sign-in').click();
  await page.waitForURL(`${server.origin}/dashboard`);
}

/** Creates an API key on the keys page (`?org=` for an admin's choice); resolves to its secret, shown once, and its id. */
export async function createKeyInBrowser(server: DashboardServer, page: Page, input: { name: string; orgId?: string }): Promise<{ secret: string; keyId: string }> {
  await page.goto(`${server.origin}/dashboard/keys${input.orgId ? `?org=${input.orgId}` : ''}`);
  await page.fill('#key-name', input.name);
  await page.getByTestId('create-key').click();
  const secret = (await page.getByTestId('new-key-secret').textContent())!.trim();
  const keyId = await page.locator('tr[data-key-id]', { hasText: input.name }).first().getAttribute('data-key-id');
  return { secret, keyId: keyId! };
}

/** Sends `count` chat requests through the inference app with `key`; resolves to their statuses. */
export async function sendTraffic(server: DashboardServer, key: string, prompts: readonly string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const prompt of prompts) {
    const response = await fetch(`${server.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc/auto', temperature: 0, messages: [{ role: 'user', content: prompt }] }),
    });
    await response.text();
    statuses.push(response.status);
  }
  return statuses;
}
