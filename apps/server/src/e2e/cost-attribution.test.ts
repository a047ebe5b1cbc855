import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type Group = { value: string | null; requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number };
type Row = { request_id: string; org_id: string; key_id: string; model: string; cost_usd: number; tags: Record<string, string> | null };

/** Issue 32, cost attribution: spend by request metadata tag, and the ledger export (admin API). */
describe('cost attribution and ledger export (mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let orgId: string;
  let keyId: string;
  const since = new Date(Date.now() - 60_000).toISOString();

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.controlUrl}${path}`, { ...init, headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6 });
    gateway = await startGateway(upstreamProviders(upstream.url));
    const org = (await (await admin('/v1/admin/orgs', { method: 'POST', body: JSON.stringify({ name: `tags-e2e-${Date.now()}` }) })).json()) as { id: string };
    orgId = org.id;
    const key = (await (await admin('/v1/admin/keys', { method: 'POST', body: JSON.stringify({ org_id: orgId, scopes: ['inference:chat'] }) })).json()) as { id: string; key: string };
    keyId = key.id;
    const openai = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key.key, maxRetries: 0 });
    const ask = (metadata: Record<string, string> | undefined, model = 'openai/gpt-4o-mini') =>
      openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Attribute me.' }], ...(metadata ? { metadata } : {}) });
    await ask({ team: 'search', feature: 'autocomplete' });
    await ask({ team: 'search' }, 'anthropic/claude-sonnet-4-5');
    await ask({ team: 'ads' });
    await ask(undefined);
    await openai.responses.create({ model: 'openai/gpt-4o-mini', input: 'Attribute me too.', metadata: { team: 'ads' } });
    await gateway.runtime.learn.flush();
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it("groups an organisation's spend by a metadata tag its requests carried", async () => {
    const response = await admin(`/v1/admin/orgs/${orgId}/spend/by-tag?tag=team&since=${encodeURIComponent(since)}`);
    expect(response.status).toBe(200);
    const report = (await response.json()) as { object: string; tag: string; data: Group[] };
    expect(report).toMatchObject({ object: 'spend_by_tag', tag: 'team' });
    const byValue = new Map(report.data.map((group) => [group.value, group]));
    expect([...byValue.keys()].sort()).toEqual(['ads', 'search', null].sort());
    expect(byValue.get('search')!.requests).toBe(2);
    expect(byValue.get('ads')!.requests).toBe(2);
    expect(byValue.get(null)!.requests).toBe(1);
    for (const group of report.data) expect(group.cost_usd).toBeGreaterThan(0);
    // The groups add up to the organisation's whole spend.
    const summary = await gateway.runtime.db.usage.summary(orgId, new Date(since));
    expect(report.data.reduce((sum, group) => sum + group.cost_usd, 0)).toBeCloseTo(summary.costUsd, 9);
    const feature = (await (await admin(`/v1/admin/orgs/${orgId}/spend/by-tag?tag=feature`)).json()) as { data: Group[] };
    expect(feature.data.find((group) => group.value === 'autocomplete')?.requests).toBe(1);
  });

  it('exports the ledger as JSON lines, filtered by organisation, tag, model and key', async () => {
    const response = await admin(`/v1/admin/ledger/export?org_id=${orgId}&since=${encodeURIComponent(since)}`);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const rows = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as Row);
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.org_id === orgId && row.key_id === keyId)).toBe(true);
    expect(rows.filter((row) => row.tags?.team === 'search')).toHaveLength(2);

    const tagged = (await (await admin(`/v1/admin/ledger/export?org_id=${orgId}&tag=team:search&model=anthropic/claude-sonnet-4-5`)).text()).trim().split('\n');
    expect(tagged).toHaveLength(1);
    expect(JSON.parse(tagged[0]!)).toMatchObject({ model: 'anthropic/claude-sonnet-4-5', tags: { team: 'search' } });
    expect((await (await admin(`/v1/admin/ledger/export?key_id=key_none&org_id=${orgId}`)).text()).trim()).toBe('');
  });

  it('exports CSV with a header row, tags as JSON; bad filters are 400 and the route is admin only', async () => {
    const response = await admin(`/v1/admin/ledger/export?format=csv&org_id=${orgId}&tag=team:ads`);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const [header, ...lines] = (await response.text()).trim().split('\n');
    expect(header!.split(',')).toEqual(expect.arrayContaining(['request_id', 'created_at', 'org_id', 'key_id', 'model', 'cost_usd', 'tags']));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"{""team"":""ads""}"');
    expect((await admin('/v1/admin/ledger/export?format=xml')).status).toBe(400);
    expect((await admin('/v1/admin/ledger/export?since=yesterday')).status).toBe(400);
    const tenant = await fetch(`${gateway.controlUrl}/v1/admin/ledger/export`, { headers: { authorization: 'Bearer sk-svc-not-a-key' } });
    expect(tenant.status).toBe(401);
  });
});
