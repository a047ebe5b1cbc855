import { randomUUID } from 'node:crypto';
import { endUserSubject } from '@svc/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { type DashboardHarness, dashboardUser, startDashboard } from './dashboard-harness.js';

let harness: DashboardHarness;
let runtime: Runtime;
let app: DashboardHarness['app'];
let own: { id: string };
let other: { id: string };

beforeAll(async () => {
  harness = await startDashboard();
  ({ runtime, app } = harness);
  own = await runtime.db.orgs.ensure('pages-own');
  other = await runtime.db.orgs.ensure('pages-other');
});
afterAll(async () => {
  await runtime?.close();
});

/** A signed-in browser of a user with `role` in the org `own`. */
const signedIn = (role: 'admin' | 'member') => dashboardUser(harness, own.id, role);

describe('dashboard pages', () => {
  it('redirects to sign-in without a session and sends the security headers', async () => {
    const response = await app.request('/dashboard');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/login');
    const login = await app.request('/dashboard/login');
    expect(login.status).toBe(200);
    expect(login.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await login.text()).toMatch(/^<!doctype html>/);
    expect(login.headers.get('cache-control')).toBe('no-store');
    // The static assets keep their own caching, with the security headers.
    const script = await app.request('/dashboard/assets/dashboard.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=300');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    // The WebAuthn bundle, whose request also starts loading the server side of passkeys.
    const webauthn = await app.request('/dashboard/assets/webauthn.js');
    expect(webauthn.status).toBe(200);
    expect(await webauthn.text()).toContain('SimpleWebAuthnBrowser');
  });

  it('lists the master key without offering to revoke it, and refuses a forged revoke (409)', async () => {
    const secret = 'sk-svc-pages-master-key-0123456789-Xq7Lm2Pw';
    const { record: master } = await runtime.authenticator.ensureMasterKey(secret);
    const admin = await signedIn('admin');
    const page = await (await admin.get(`/dashboard/keys?org=${master.orgId}`)).text();
    expect(page).toContain(`data-testid="master-${master.id}"`);
    expect(page).not.toContain(secret.slice(0, 8));
    expect(page).not.toContain(`data-testid="revoke-${master.id}"`);
    expect((await admin.post(`/dashboard/keys/${master.id}/revoke`, {})).status).toBe(409);
    expect((await runtime.db.keys.get(master.id))!.status).toBe('active');
  });

  it('keeps a member to its own organisation: other orgs, their keys and limits are refused', async () => {
    const member = await signedIn('member');
    expect((await member.get('/dashboard')).status).toBe(200);
    expect((await member.get(`/dashboard?org=${other.id}`)).status).toBe(403);
    expect((await member.get(`/dashboard/keys?org=${other.id}`)).status).toBe(403);
    expect((await member.post('/dashboard/keys', { org_id: other.id, name: 'x' })).status).toBe(403);
    const foreign = await runtime.authenticator.issue({ orgId: other.id, scopes: ['inference:chat'] });
    expect((await member.post(`/dashboard/keys/${foreign.record.id}/revoke`, {})).status).toBe(403);
    expect((await runtime.db.keys.get(foreign.record.id))!.status).toBe('active');
    const limits = await member.post(`/dashboard/org/${own.id}`, { rpm_limit: '1' });
    expect(limits.status).toBe(403);
    expect((await runtime.db.orgs.get(own.id))!.rpmLimit).toBeNull();
    expect(await (await member.get('/dashboard/org')).text()).not.toContain('Save limits');
  });

  it('creates a key in its own org (secret shown once) and refuses a form without the CSRF token', async () => {
    const member = await signedIn('member');
    expect((await member.post('/dashboard/keys', { name: 'no token' }, null)).status).toBe(403);
    expect((await member.post('/dashboard/keys', { name: 'wrong token' }, 'nope')).status).toBe(403);
    const created = await member.post('/dashboard/keys', { name: 'from the dashboard' });
    expect(created.status).toBe(201);
    const secret = /sk-svc-[A-Za-z0-9]+/.exec(await created.text())![0];
    const caller = await runtime.authenticator.authenticate(secret);
    expect(caller.org.id).toBe(own.id);
    expect(caller.scopes.has('admin')).toBe(false);
    expect((await member.get('/dashboard/keys')).status).toBe(200);
    expect(await (await member.get('/dashboard/keys')).text()).not.toContain(secret);
  });

  it('lets an admin see the fleet, any organisation, and change limits', async () => {
    const admin = await signedIn('admin');
    expect(await (await admin.get('/dashboard')).text()).toContain('Whole fleet');
    expect((await admin.get(`/dashboard?org=${other.id}&range=30d`)).status).toBe(200);
    const saved = await admin.post(`/dashboard/org/${other.id}`, { rpm_limit: '120', monthly_budget_usd: '12.5', tpm_limit: '', token_quota: '' });
    expect(saved.status).toBe(303);
    expect(await runtime.db.orgs.get(other.id)).toMatchObject({ rpmLimit: 120, monthlyBudgetUsd: 12.5, tpmLimit: null });
    expect((await admin.post(`/dashboard/org/${other.id}`, { rpm_limit: '-3' })).status).toBe(400);
  });
});

describe('guardrails page', () => {
  it("shows an organisation's and its keys' checks in order; an admin edits them, a refused save shows the server's message and keeps the text", async () => {
    const org = await runtime.db.orgs.ensure(`guardrails-${randomUUID()}`);
    const { record: key } = await runtime.authenticator.issue({ orgId: org.id, name: 'backend', scopes: ['inference:chat'] });
    const admin = await signedIn('admin');
    const checks = [
      { type: 'pii', stage: 'before_call', action: 'redact' },
      { type: 'webhook', stage: 'after_answer', action: 'refuse', url: 'https://guard.example.com/check', timeout_ms: 1500, failure_mode: 'closed' },
    ];
    const saved = await admin.post(`/dashboard/guardrails/org/${org.id}`, { guardrails: JSON.stringify(checks) });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/dashboard/guardrails?org=${org.id}`);
    expect((await runtime.db.orgs.get(org.id))?.guardrails).toEqual([{ kind: 'pii', stage: 'before_call', action: 'redact' }, { kind: 'webhook', stage: 'after_answer', action: 'refuse', url: 'https://guard.example.com/check', timeoutMs: 1500, failureMode: 'closed' }]);
    // The caller's cached organisation follows at once: the next request runs the checks.
    expect((await runtime.authenticator.authenticate((await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret)).org.guardrails).toHaveLength(2);
    const view = await (await admin.get(`/dashboard/guardrails?org=${org.id}`)).text();
    const table = view.match(/<table data-testid="org-guardrails">.*?<\/table>/s)?.[0] ?? '';
    expect(table).toMatch(/pii.*before_call.*redact.*webhook.*after_answer.*refuse.*url=https:\/\/guard\.example\.com\/check · timeout_ms=1500 · failure_mode=closed/s);

    const refused = await admin.post(`/dashboard/guardrails/keys/${key.id}`, { guardrails: '[{"type": "pii", "stage": "before_call", "action": "redact", "stag": "x"}]' });
    expect(refused.status).toBe(400);
    const shown = await refused.text();
    expect(shown).toContain('data-testid="guardrails-error"');
    expect(shown).toContain('guardrails.0.stag');
    expect(shown).toContain('&quot;stag&quot;: &quot;x&quot;');
    expect((await admin.post(`/dashboard/guardrails/keys/${key.id}`, { guardrails: '[{' })).status).toBe(400);
    expect((await runtime.db.keys.get(key.id))?.guardrails ?? null).toBeNull();

    expect((await admin.post(`/dashboard/guardrails/keys/${key.id}`, { guardrails: '[{"type": "secrets", "stage": "after_answer", "action": "log"}]' })).status).toBe(303);
    expect((await runtime.db.keys.get(key.id))?.guardrails).toEqual([{ kind: 'secrets', stage: 'after_answer', action: 'log' }]);
    const keyView = await (await admin.get(`/dashboard/guardrails?org=${org.id}&key=${key.id}`)).text();
    expect(keyView.match(new RegExp(`<table data-testid="key-guardrails-${key.id}">.*?</table>`, 's'))?.[0]).toMatch(/secrets.*after_answer.*log/s);
    expect(keyView).toContain(`action="/dashboard/guardrails/keys/${key.id}"`);
    expect((await admin.post(`/dashboard/guardrails/org/${org.id}`, { guardrails: '' })).status).toBe(303);
    expect((await runtime.db.orgs.get(org.id))?.guardrails ?? null).toBeNull();
  });

  it('lets a member see its own organisation\'s checks, and nothing more', async () => {
    const member = await signedIn('member');
    const page = await member.get('/dashboard/guardrails');
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('data-testid="guardrails-form"');
    expect((await member.get(`/dashboard/guardrails?org=${other.id}`)).status).toBe(403);
    expect((await member.post(`/dashboard/guardrails/org/${own.id}`, { guardrails: '' })).status).toBe(403);
  });
});

describe('models page', () => {
  it('shows every served model with its source; an admin overrides a price and a retirement seen by the catalog, members only read', async () => {
    const member = await signedIn('member');
    const read = await member.get('/dashboard/models');
    expect(read.status).toBe(200);
    const html = await read.text();
    expect(html).toContain('data-model-id="mock/mock-value"');
    expect(html).not.toContain('data-testid="model-form"');
    expect((await member.post('/dashboard/models', { id: 'mock/mock-value', input_price_per_mtok: '1' })).status).toBe(403);

    const admin = await signedIn('admin');
    expect(await (await admin.get('/dashboard/models')).text()).toContain('data-testid="model-form"');
    const saved = await admin.post('/dashboard/models', { id: 'mock/mock-value', input_price_per_mtok: '7.5', output_price_per_mtok: '', cached_input_price_per_mtok: '', retires_at: '2099-01-31', replacement: 'mock/mock-quality' });
    expect(saved.status, await saved.clone().text()).toBe(303);
    try {
      expect(runtime.catalog.get('mock/mock-value')).toMatchObject({ inputPricePerMTok: 7.5, replacement: 'mock/mock-quality' });
      const row = (await (await admin.get('/dashboard/models')).text()).match(/<tr data-model-id="mock\/mock-value">.*?<\/tr>/s)?.[0] ?? '';
      expect(row).toContain('stored');
      expect(row).toContain('$7.5');
      expect(row).toContain('2099-01-31 → mock/mock-quality');
      expect((await admin.post('/dashboard/models', { id: 'mock/mock-value', input_price_per_mtok: '-1' })).status).toBe(400);
      expect((await admin.post('/dashboard/models', { id: 'Not A Model', input_price_per_mtok: '1' })).status).toBe(400);
      expect((await admin.post('/dashboard/models', { id: 'mock/mock-value', retires_at: 'soon' })).status).toBe(400);
      expect((await admin.post('/dashboard/models', { id: 'mock/mock-value', input_price_per_mtok: '2' }, null)).status).toBe(403);
      const refreshed = await admin.post('/dashboard/models/refresh', {});
      expect(refreshed.status).toBe(200);
    } finally {
      await runtime.models.delete('mock/mock-value');
    }
    expect(runtime.catalog.get('mock/mock-value')?.inputPricePerMTok).not.toBe(7.5);
  });
});

describe('quality page', () => {
  const DAY = 86_400_000;
  /** `own` served code with mock-quality three days ago and with mock-value yesterday; 30 judged pairs, the cheaper model losing 24. */
  beforeAll(async () => {
    const decision = (daysAgo: number, k: number, model: string) => ({
      requestId: `req_quality_${daysAgo}_${k}_${randomUUID().slice(0, 8)}`,
      orgId: own.id,
      model,
      provider: 'mock',
      source: 'Router',
      taskFamily: 'code',
      outcome: 'ok',
      latencyMs: 100,
      attempts: [{ model, provider: 'mock', outcome: 'ok', latencyMs: 90 }],
      createdAt: new Date(Date.now() - daysAgo * DAY - 3_600_000 - k * 60_000),
    });
    await runtime.db.decisions.insertMany([...Array.from({ length: 5 }, (_, k) => decision(3, k, 'mock/mock-quality')), ...Array.from({ length: 5 }, (_, k) => decision(1, k, 'mock/mock-value'))]);
    for (let k = 0; k < 30; k++) {
      await runtime.db.shadowVerdicts.insert({
        orgId: own.id,
        requestId: `req_quality_judged_${k}`,
        taskKind: 'code',
        incumbentModel: 'mock/mock-quality',
        candidateModel: 'mock/mock-value',
        judgeModel: 'mock/mock-quality',
        verdict: k < 24 ? 'incumbent' : 'candidate',
        candidateCostUsd: 0.001,
        judgeCostUsd: 0.002,
        createdAt: new Date(Date.now() - 2 * DAY - k * 60_000),
      });
    }
  });

  it("shows a member its organisation's judged win rates and the route change the gate refused, and only reads", async () => {
    const member = await signedIn('member');
    const read = await member.get('/dashboard/quality');
    expect(read.status).toBe(200);
    const html = await read.text();
    const judged = html.match(/<tr data-task-kind="code" data-model="mock\/mock-value">.*?<\/tr>/s)?.[0] ?? '';
    expect(judged).toContain('6 / 24 / 0');
    expect(judged).toContain('20.0 %');
    const change = html.match(/<tr data-status="refused">.*?<\/tr>/s)?.[0] ?? '';
    expect(change).toContain('mock/mock-quality</code> → <code>mock/mock-value');
    expect(change).toContain('judged worse');
    expect(html).toContain('data-testid="shadow-settings"');
    expect(html).not.toContain('data-testid="shadow-form"');
    expect((await member.post(`/dashboard/quality/${own.id}/shadow`, { enabled: 'true', sample_rate: '0.5', judge_model: 'mock/mock-quality', daily_budget_usd: '1' })).status).toBe(403);
    expect((await member.get(`/dashboard/quality?org=${other.id}`)).status).toBe(403);
  });

  it('lets an admin turn shadow judging on through the admin API\'s rules', async () => {
    const admin = await signedIn('admin');
    expect(await (await admin.get('/dashboard/quality')).text()).toContain('Pick an organisation');
    const unset = await (await admin.get(`/dashboard/quality?org=${other.id}`)).text();
    expect(unset).toContain('data-testid="shadow-form"');
    expect(unset).toMatch(/<input id="cautious_start" name="cautious_start" type="checkbox" value="true" checked/); // never set: on
    const form = { enabled: 'true', sample_rate: '0.25', candidate_models: 'mock/mock-value, mock/mock-speed', judge_model: 'mock/mock-quality', daily_budget_usd: '2', judge_error_rate: '', cautious_start: 'true' };
    const saved = await admin.post(`/dashboard/quality/${other.id}/shadow`, form);
    expect(saved.status, await saved.clone().text()).toBe(303);
    expect((await runtime.db.settings.get(other.id))['shadow_judging']).toEqual({ enabled: true, sample_rate: 0.25, candidate_models: ['mock/mock-value', 'mock/mock-speed'], judge_model: 'mock/mock-quality', daily_budget_usd: 2, judge_error_rate: null, cautious_start: true });
    expect(await (await admin.get(`/dashboard/quality?org=${other.id}`)).text()).toContain('On: 25.0 % of requests');
    expect(await (await admin.get(`/dashboard/quality?org=${other.id}`)).text()).toContain('(the default; no rate set');
    expect((await admin.post(`/dashboard/quality/${other.id}/shadow`, { ...form, judge_error_rate: '0.1' })).status).toBe(303);
    expect((await runtime.db.settings.get(other.id))['shadow_judging']).toMatchObject({ judge_error_rate: 0.1 });
    expect(await (await admin.get(`/dashboard/quality?org=${other.id}`)).text()).toContain('(as set)');
    expect((await admin.post(`/dashboard/quality/${other.id}/shadow`, { ...form, judge_model: 'no/such-model' })).status).toBe(400);
    expect((await admin.post(`/dashboard/quality/${other.id}/shadow`, { ...form, sample_rate: '2' })).status).toBe(400);
    // A refused save shows the form again with the API's message naming the field.
    const refused = await admin.post(`/dashboard/quality/${other.id}/shadow`, { ...form, judge_error_rate: '0.6' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/data-testid="shadow-error">[^<]*judge_error_rate[^<]*must be at most 0.45/);
    expect((await runtime.db.settings.get(other.id))['shadow_judging']).toMatchObject({ judge_error_rate: 0.1 });
    expect((await admin.post(`/dashboard/quality/${other.id}/shadow`, form, null)).status).toBe(403);
    // Unchecked: off, the rest kept as given.
    const { enabled: _, ...off } = form;
    expect((await admin.post(`/dashboard/quality/${other.id}/shadow`, off)).status).toBe(303);
    expect((await runtime.db.settings.get(other.id))['shadow_judging']).toMatchObject({ enabled: false });
    // The cautious start unticked: off for the organisation's kinds, said in the summary, the box shown unticked.
    const { cautious_start: __, ...cost } = form;
    expect((await admin.post(`/dashboard/quality/${other.id}/shadow`, cost)).status).toBe(303);
    expect((await runtime.db.settings.get(other.id))['shadow_judging']).toMatchObject({ enabled: true, cautious_start: false });
    const page = await (await admin.get(`/dashboard/quality?org=${other.id}`)).text();
    expect(page).toContain('Cautious start off');
    expect(page).toMatch(/<input id="cautious_start" name="cautious_start" type="checkbox" value="true"\/?>/);
  });
});

/** One request of `orgId` in the ledger and the decision log, made a minute ago. */
async function request(orgId: string, fields: { keyId?: string; model?: string; endUser?: string; memoryInjected?: number; cache?: 'l1' | 'semantic'; costUsd?: number; interactiveCostUsd?: number; metadata?: Record<string, string>; tags?: Record<string, string> }) {
  const requestId = `req_${randomUUID()}`;
  const model = fields.model ?? 'mock/small';
  const createdAt = new Date(Date.now() - 60_000);
  await runtime.db.usage.insertMany([
    { requestId, orgId, keyId: fields.keyId ?? null, model, provider: 'mock', promptTokens: 12, completionTokens: 8, costUsd: fields.costUsd ?? 0.002, baselineCostUsd: 0.01, cacheHit: fields.cache !== undefined, latencyMs: 40, status: 200, endUser: fields.endUser ?? null, memoryInjected: fields.memoryInjected ?? null, tags: fields.tags ?? null, interactiveCostUsd: fields.interactiveCostUsd ?? null, createdAt },
  ]);
  const cacheHit = fields.cache ? { source: 'CacheHit', details: { cacheLayer: fields.cache } } : { source: 'Router', details: { complexity: 0.2, ...(fields.metadata ? { metadata: fields.metadata } : {}) } };
  await runtime.db.decisions.insertMany([{ requestId, orgId, requestedModel: 'svc/auto', model, provider: 'mock', tier: 'economy', outcome: 'ok', latencyMs: 40, attempts: [{ model, provider: 'mock', outcome: 'ok', latencyMs: 38 }], createdAt, ...cacheHit }]);
  return requestId;
}

describe('incident pages', () => {
  it('lists the own organisation\'s requests, filters by end user (id or hash) and key, and links each to its decision', async () => {
    const member = await signedIn('member');
    const key = await runtime.authenticator.issue({ orgId: own.id, name: 'log key', scopes: ['inference:chat'] });
    const ada = await request(own.id, { keyId: key.record.id, endUser: endUserSubject(own.id, 'ada@example.com'), memoryInjected: 3, metadata: { note: 'client tracing text' } });
    const cached = await request(own.id, { cache: 'semantic' });
    const foreign = await request(other.id, {});
    const log = await (await member.get('/dashboard/requests')).text();
    expect(log).toContain(`data-request-id="${ada}"`);
    expect(log).toContain(`data-request-id="${cached}"`);
    expect(log).not.toContain(foreign);
    expect(log).toContain('economy · Router');
    expect(log).toContain('log key');

    const byUser = await (await member.get('/dashboard/requests?user=ada%40example.com')).text();
    expect(byUser).toContain(`data-request-id="${ada}"`);
    expect(byUser).not.toContain(`data-request-id="${cached}"`);
    expect(byUser).toContain(endUserSubject(own.id, 'ada@example.com'));
    const byHash = await (await member.get(`/dashboard/requests?user=${endUserSubject(own.id, 'ada@example.com')}`)).text();
    expect(byHash).toContain(`data-request-id="${ada}"`);
    const byKey = await (await member.get(`/dashboard/requests?key=${key.record.id}`)).text();
    expect(byKey).toContain(ada);
    expect(byKey).not.toContain(`data-request-id="${cached}"`);
    // A batch's lines, by the batch id their ledger rows are tagged with.
    const line = await request(own.id, { tags: { batch_id: 'batch_pages' } });
    // A line a provider's batch API answered at half price: its saving on its row and the batch's in the summary.
    const native = await request(own.id, { tags: { batch_id: 'batch_pages' }, costUsd: 0.25, interactiveCostUsd: 0.5 });
    const byBatch = await (await member.get('/dashboard/requests?batch=batch_pages')).text();
    expect(byBatch).toContain(`data-request-id="${line}"`);
    expect(byBatch).toContain(`data-request-id="${native}"`);
    expect(byBatch).not.toContain(`data-request-id="${ada}"`);
    expect(byBatch).toContain(' · batch_pages');
    expect(byBatch).toMatch(/data-testid="saved"> · saved \$0\.2500/);
    expect(byBatch).toMatch(/data-testid="batch-summary">[\s\S]*2 lines billed[\s\S]*\$0\.2520 at batch prices, \$0\.5020 at interactive prices[\s\S]*saved \$0\.2500/);

    const detail = await member.get(`/dashboard/requests/${ada}`);
    expect(detail.status).toBe(200);
    const detailText = await detail.text();
    expect(detailText).toContain('complexity');
    expect(detailText).not.toContain('client tracing text');
    // The ledger's side of the request: its key, end user hash and memories.
    expect(detailText).toContain('log key');
    expect(detailText).toContain(endUserSubject(own.id, 'ada@example.com'));
    expect(detailText).toMatch(/Memories injected<\/th><td>3</);
    // Another organisation's request is answered as an unknown one (issue #36).
    expect((await member.get(`/dashboard/requests/${foreign}`)).status).toBe(404);
    expect((await member.get(`/dashboard/requests?org=${other.id}`)).status).toBe(403);
    expect((await member.get(`/dashboard/costs?org=${other.id}`)).status).toBe(403);
    expect(await (await member.get('/dashboard/costs')).text()).not.toContain('Whole fleet');
  });

  it('pages the log newest first, and refuses an end user id in the fleet view (a hash is needed)', async () => {
    const admin = await signedIn('admin');
    const org = await runtime.db.orgs.ensure(`pages-paging-${randomUUID()}`);
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await request(org.id, {}));
    const first = await (await admin.get(`/dashboard/requests?org=${org.id}`)).text();
    expect(first.match(/data-request-id=/g)).toHaveLength(50);
    const older = /href="(\/dashboard\/requests\?[^"]*cursor=[^"]+)"/.exec(first)![1]!.replaceAll('&amp;', '&');
    const second = await (await admin.get(older)).text();
    expect(second.match(/data-request-id=/g)).toHaveLength(2);
    expect((await admin.get('/dashboard/requests?user=ada')).status).toBe(400);
    expect((await admin.get(`/dashboard/requests?user=${endUserSubject(org.id, 'ada')}`)).status).toBe(200);
  });

  it('shows cost per key and per model for the period', async () => {
    const admin = await signedIn('admin');
    const org = await runtime.db.orgs.ensure(`pages-costs-${randomUUID()}`);
    const key = await runtime.authenticator.issue({ orgId: org.id, name: 'batch jobs', scopes: ['inference:chat'] });
    await request(org.id, { keyId: key.record.id, model: 'mock/large', costUsd: 0.5 });
    await request(org.id, { keyId: key.record.id, model: 'mock/small', costUsd: 0.25 });
    const page = await (await admin.get(`/dashboard/costs?org=${org.id}&range=24h`)).text();
    expect(page).toMatch(/batch jobs[\s\S]*\$0\.7500/);
    expect(page).toMatch(/mock\/large[\s\S]*\$0\.5000[\s\S]*mock\/small[\s\S]*\$0\.2500/);
    expect((await admin.get(`/dashboard/costs?org=${org.id}&range=30d`)).status).toBe(200);
  });

  it('shows cost per request metadata tag for one organisation', async () => {
    const admin = await signedIn('admin');
    const org = await runtime.db.orgs.ensure(`pages-tags-${randomUUID()}`);
    await request(org.id, { costUsd: 0.5, tags: { team: 'search' } });
    await request(org.id, { costUsd: 0.25, tags: { team: 'ads' } });
    await request(org.id, { costUsd: 0.125 });
    const page = await (await admin.get(`/dashboard/costs?org=${org.id}&range=24h&tag=team`)).text();
    expect(page).toContain('data-testid="cost-by-tag"');
    expect(page).toMatch(/search[\s\S]*\$0\.5000[\s\S]*ads[\s\S]*\$0\.2500[\s\S]*\(untagged\)[\s\S]*\$0\.1250/);
    expect(await (await admin.get(`/dashboard/costs?org=${org.id}&range=24h`)).text()).not.toContain('data-testid="cost-by-tag"');
  });

  it('shows SLOs with their state and budget, and firing alerts of the own organisation only', async () => {
    const member = await signedIn('member');
    const name = `latency-${randomUUID().slice(0, 8)}`;
    const { slo } = await runtime.db.slos.put({ orgId: own.id, name, metric: 'latency_p95_ms', threshold: 1, target: 0.99, windowDays: 1 });
    await runtime.db.alerts.raise({ orgId: own.id, kind: 'slo_breach', severity: 'critical', dedupeKey: `slo:${slo.id}`, subject: slo.id, message: `${name} breached` });
    await runtime.db.alerts.raise({ orgId: other.id, kind: 'limit_spike', severity: 'warning', dedupeKey: `limits:${other.id}:rpm`, subject: 'rpm', message: 'other org refusals' });
    const page = await (await member.get('/dashboard/alerts')).text();
    expect(page).toContain(`data-slo="${name}"`);
    expect(page).toContain(`${name} breached`);
    expect(page).toMatch(/data-rule="slo_breach"[\s\S]*?1 firing/);
    expect(page).not.toContain('other org refusals');
    expect((await member.get(`/dashboard/alerts?org=${other.id}`)).status).toBe(403);
  });

  it('states the breakers\' window and shows the period\'s requests per model from the ledger', async () => {
    const admin = await signedIn('admin');
    const org = await runtime.db.orgs.ensure(`pages-breakers-${randomUUID()}`);
    await request(org.id, { model: 'mock/breaker-model' });
    await request(org.id, { model: 'mock/breaker-model' });
    await runtime.breakers.record('mock/breaker-model', 'success');
    const page = await (await admin.get(`/dashboard?org=${org.id}&range=24h`)).text();
    expect(page).toContain('last 30 s');
    expect(page).toMatch(/data-breaker="mock\/breaker-model"[\s\S]*?0 failed \/ 1 ok[\s\S]*?0 failed \/ 2</);
  });
});
