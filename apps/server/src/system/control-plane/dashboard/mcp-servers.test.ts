import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { type DashboardHarness, dashboardUser, startDashboard } from './dashboard-harness.js';

let harness: DashboardHarness;
let runtime: Runtime;
let own: { id: string };
let other: { id: string };

beforeAll(async () => {
  harness = await startDashboard();
  runtime = harness.runtime;
  own = await runtime.db.orgs.ensure('mcp-pages-own');
  other = await runtime.db.orgs.ensure('mcp-pages-other');
});
afterAll(async () => {
  await runtime?.close();
});

const signedIn = (role: 'admin' | 'member') => dashboardUser(harness, own.id, role);

/** The header the gateway would send to `name` (the sealed credential opened), or {} when none. */
async function sentHeaders(orgId: string, name: string, keyId: string): Promise<Record<string, string>> {
  const target = (await runtime.mcp.connections(orgId, keyId)).find((entry) => entry.name === name);
  return target?.headers() ?? {};
}

const secret = 'tok-dashboard-secret-4242';

describe('MCP servers page', () => {
  it('registers, lists (never the credential), edits keeping the credential, clears it and deletes', async () => {
    const admin = await signedIn('admin');
    const key = (await runtime.authenticator.issue({ orgId: own.id, scopes: ['inference:chat'] })).record;
    const form = { name: 'search', url: 'https://search.example.com/mcp', transport: 'streamable_http', credential_header: 'X-Api-Key', credential_value: secret, tools: 'find, fetch', key_ids: key.id, tool_key_ids: JSON.stringify({ fetch: [key.id] }) };
    const saved = await admin.post(`/dashboard/mcp-servers/${own.id}`, form);
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/dashboard/mcp-servers?org=${own.id}`);
    expect(await runtime.mcp.get(own.id, 'search')).toMatchObject({ url: form.url, tools: ['find', 'fetch'], keyIds: [key.id], toolKeyIds: { fetch: [key.id] }, credential: { header: 'X-Api-Key' } });
    expect(await sentHeaders(own.id, 'search', key.id)).toEqual({ 'X-Api-Key': secret });

    const view = await (await admin.get(`/dashboard/mcp-servers?org=${own.id}`)).text();
    const row = view.match(/<tr data-server="search">.*?<\/tr>/s)?.[0] ?? '';
    expect(row).toMatch(/search\.example\.com.*streamable_http.*find, fetch/s);
    expect(row).toContain(key.id);
    expect(row).toContain(`fetch: ${key.id}`);
    expect(row).toContain('set (X-Api-Key)');
    expect(view).not.toContain(secret);
    expect(view).not.toContain('4242');

    // An edit without a new value keeps the sealed credential; the edit form never shows it either.
    const edit = await (await admin.get(`/dashboard/mcp-servers?org=${own.id}&server=search`)).text();
    expect(edit).toContain(`action="/dashboard/mcp-servers/${own.id}/search"`);
    expect(edit).not.toContain(secret);
    const kept = await admin.post(`/dashboard/mcp-servers/${own.id}/search`, { ...form, url: 'https://search.example.com/v2', credential_value: '', tools: '' });
    expect(kept.status).toBe(303);
    expect(await runtime.mcp.get(own.id, 'search')).toMatchObject({ url: 'https://search.example.com/v2', tools: null, credential: { header: 'X-Api-Key', last4: '4242' } });
    expect(await sentHeaders(own.id, 'search', key.id)).toEqual({ 'X-Api-Key': secret });

    // A new value replaces it; the box clears it.
    expect((await admin.post(`/dashboard/mcp-servers/${own.id}/search`, { ...form, credential_value: 'tok-other-1111' })).status).toBe(303);
    expect(await sentHeaders(own.id, 'search', key.id)).toEqual({ 'X-Api-Key': 'tok-other-1111' });
    expect((await admin.post(`/dashboard/mcp-servers/${own.id}/search`, { ...form, credential_value: '', clear_credential: 'true' })).status).toBe(303);
    expect((await runtime.mcp.get(own.id, 'search'))?.credential).toBeNull();
    expect(await (await admin.get(`/dashboard/mcp-servers?org=${own.id}`)).text()).toContain('data-testid="credential-search">none<');

    expect((await admin.post(`/dashboard/mcp-servers/${own.id}/search/delete`, {})).status).toBe(303);
    expect(await runtime.mcp.get(own.id, 'search')).toBeUndefined();
    expect((await admin.post(`/dashboard/mcp-servers/${own.id}/search/delete`, {})).status).toBe(404);
  });

  it("refuses a save with the admin API's message naming the field, keeping the form as sent", async () => {
    const admin = await signedIn('admin');
    const base = { name: 'docs', url: 'https://docs.example.com/mcp', credential_header: 'Authorization', credential_value: secret, tools: 'read' };
    const refused = await admin.post(`/dashboard/mcp-servers/${own.id}`, { ...base, tool_key_ids: '{"write": ["k1"]}' });
    expect(refused.status).toBe(400);
    const shown = await refused.text();
    expect(shown).toContain('data-testid="mcp-server-error"');
    expect(shown).toContain('tool_key_ids.write');
    expect(shown).toContain('value="https://docs.example.com/mcp"');
    expect(shown).toContain('{&quot;write&quot;: [&quot;k1&quot;]}');
    expect(shown).not.toContain(secret);
    expect(await runtime.mcp.get(own.id, 'docs')).toBeUndefined();

    // The private-address check of the admin API applies as it does there.
    const privateUrl = await admin.post(`/dashboard/mcp-servers/${own.id}`, { ...base, url: 'http://127.0.0.1:9000/mcp' });
    expect(privateUrl.status).toBe(400);
    const privateShown = await privateUrl.text();
    expect(privateShown).toMatch(/url names the non-public address 127\.0\.0\.1/);
    expect(privateShown).toContain('value="http://127.0.0.1:9000/mcp"');
    expect(await runtime.mcp.get(own.id, 'docs')).toBeUndefined();

    expect((await admin.post(`/dashboard/mcp-servers/${own.id}`, { ...base, name: 'bad_name' })).status).toBe(400);
    expect((await admin.post(`/dashboard/mcp-servers/${own.id}`, { ...base, credential_header: 'Content-Type' })).status).toBe(400);
    expect((await admin.post(`/dashboard/mcp-servers/${own.id}`, base)).status).toBe(303);
    const again = await admin.post(`/dashboard/mcp-servers/${own.id}`, { ...base, credential_value: 'tok-replaced-0000' });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already registered');
    expect((await runtime.mcp.get(own.id, 'docs'))?.credential?.last4).toBe('4242');
    // A changed header needs the value typed again.
    const header = await admin.post(`/dashboard/mcp-servers/${own.id}/docs`, { ...base, credential_header: 'X-Other', credential_value: '' });
    expect(header.status).toBe(400);
    expect(await header.text()).toContain('credential.value');
  });

  it('lets a member see its own organisation read-only, and nothing more', async () => {
    await runtime.mcp.put(own.id, { name: 'shared', url: 'https://shared.example.com/mcp', transport: 'streamable_http', credential: { header: 'X-Key', value: secret }, tools: null, keyIds: null, toolKeyIds: null });
    const member = await signedIn('member');
    const page = await member.get('/dashboard/mcp-servers');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('<tr data-server="shared">');
    expect(text).toContain('href="/dashboard/mcp-servers"');
    expect(text).not.toContain('data-testid="mcp-server-form"');
    expect(text).not.toContain('data-testid="delete-shared"');
    expect(text).not.toContain(secret);
    expect((await member.get(`/dashboard/mcp-servers?org=${other.id}`)).status).toBe(403);
    expect((await member.post(`/dashboard/mcp-servers/${own.id}`, { name: 'mine', url: 'https://mine.example.com/mcp' })).status).toBe(403);
    expect((await member.post(`/dashboard/mcp-servers/${own.id}/shared`, { url: 'https://evil.example.com/mcp' })).status).toBe(403);
    expect((await member.post(`/dashboard/mcp-servers/${own.id}/shared/delete`, {})).status).toBe(403);
    expect((await runtime.mcp.get(own.id, 'shared'))?.url).toBe('https://shared.example.com/mcp');
  });
});
