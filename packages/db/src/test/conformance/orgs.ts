import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { DbConflictError } from '../../errors.js';
import { createTestOrg, type GetDb, nextClockTick, uniqueName } from '../fixtures.js';

export function orgConformance(getDb: GetDb): void {
  it('creates an organisation with defaults and reads it back by id and name', async () => {
    const db = getDb();
    const name = uniqueName('acme');
    const org = await db.orgs.create({ name });
    expect(org).toMatchObject({
      name,
      plan: 'free',
      rpmLimit: null,
      tpmLimit: null,
      monthlyBudgetUsd: null,
      tokenQuota: null,
      defaultIntelligenceMode: null,
      freeModelsOnly: false,
      passThroughModels: true,
    });
    expect(org.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(org.createdAt).toBeInstanceOf(Date);
    expect(await db.orgs.get(org.id)).toEqual(org);
    expect(await db.orgs.getByName(name)).toEqual(org);
    expect((await db.orgs.list()).map((o) => o.id)).toContain(org.id);
  });

  it('round-trips every limit field', async () => {
    const db = getDb();
    const org = await db.orgs.create({
      name: uniqueName('limits'),
      plan: 'pro',
      rpmLimit: 600,
      tpmLimit: 120_000,
      monthlyBudgetUsd: 49.95,
      tokenQuota: 5_000_000_000,
      defaultIntelligenceMode: 'cache',
      freeModelsOnly: true,
      passThroughModels: false,
    });
    expect(await db.orgs.get(org.id)).toMatchObject({
      freeModelsOnly: true,
      passThroughModels: false,
      plan: 'pro',
      rpmLimit: 600,
      tpmLimit: 120_000,
      monthlyBudgetUsd: 49.95,
      tokenQuota: 5_000_000_000,
      defaultIntelligenceMode: 'cache',
    });
  });

  it('rejects a duplicate name with DbConflictError', async () => {
    const db = getDb();
    const name = uniqueName('dup');
    await db.orgs.create({ name });
    const error = await db.orgs.create({ name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbConflictError);
    expect((error as DbConflictError).constraint).toBe('organizations_name_unique');
  });

  it('tells which of many ids are organisations in one call, unknown and malformed ones left out', async () => {
    const db = getDb();
    const [a, b] = [await createTestOrg(db), await createTestOrg(db)];
    const unknown = randomUUID();
    expect(await db.orgs.existing([a.id, unknown, 'not-a-uuid', b.id, a.id])).toEqual(new Set([a.id, b.id]));
    expect(await db.orgs.existing([])).toEqual(new Set());
  });

  it('answers undefined for unknown and malformed ids', async () => {
    const db = getDb();
    expect(await db.orgs.get(randomUUID())).toBeUndefined();
    expect(await db.orgs.get('not-a-uuid')).toBeUndefined();
    expect(await db.orgs.getByName(uniqueName('missing'))).toBeUndefined();
    expect(await db.orgs.update('not-a-uuid', { plan: 'pro' })).toBeUndefined();
    expect(await db.orgs.update(randomUUID(), { plan: 'pro' })).toBeUndefined();
  });

  it('updates only the given fields, clears limits with null and bumps updatedAt', async () => {
    const db = getDb();
    const org = await db.orgs.create({ name: uniqueName('patch'), rpmLimit: 10, tpmLimit: 1000 });
    const updated = await db.orgs.update(org.id, { plan: 'team', rpmLimit: null, monthlyBudgetUsd: 5 });
    expect(updated).toMatchObject({ name: org.name, plan: 'team', rpmLimit: null, tpmLimit: 1000, monthlyBudgetUsd: 5 });
    expect(updated!.createdAt).toEqual(org.createdAt);
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(org.updatedAt.getTime());
    expect(await db.orgs.get(org.id)).toEqual(updated);
  });

  it('stores, replaces and clears the model access lists', async () => {
    const db = getDb();
    const org = await db.orgs.create({ name: uniqueName('access'), modelAccess: { allow: ['openai/*', 'svc/auto'], deny: ['openai/o3'] } });
    expect(org.modelAccess).toEqual({ allow: ['openai/*', 'svc/auto'], deny: ['openai/o3'] });
    expect((await db.orgs.get(org.id))?.modelAccess).toEqual(org.modelAccess);
    expect((await db.orgs.update(org.id, { modelAccess: { allow: [], deny: ['gpt-4o'] } }))?.modelAccess).toEqual({ allow: [], deny: ['gpt-4o'] });
    expect((await db.orgs.update(org.id, { modelAccess: null }))?.modelAccess).toBeNull();
    expect((await db.orgs.create({ name: uniqueName('open') })).modelAccess).toBeNull();
  });

  it('stores, replaces and clears the guardrails in order', async () => {
    const db = getDb();
    const checks = [
      { kind: 'secrets', stage: 'before_call', action: 'refuse' },
      { kind: 'webhook', stage: 'after_answer', action: 'log', url: 'https://guard.example/check', timeoutMs: 500, failureMode: 'closed' },
    ] as const;
    const org = await db.orgs.create({ name: uniqueName('guarded'), guardrails: checks });
    expect((await db.orgs.get(org.id))?.guardrails).toEqual(checks);
    expect((await db.orgs.update(org.id, { guardrails: [checks[1]] }))?.guardrails).toEqual([checks[1]]);
    expect((await db.orgs.update(org.id, { guardrails: null }))?.guardrails).toBeNull();
    expect((await db.orgs.create({ name: uniqueName('unguarded') })).guardrails).toBeNull();
  });

  it('rejects renaming onto a taken name with DbConflictError', async () => {
    const db = getDb();
    const first = await db.orgs.create({ name: uniqueName('first') });
    const second = await db.orgs.create({ name: uniqueName('second') });
    await expect(db.orgs.update(second.id, { name: first.name })).rejects.toBeInstanceOf(DbConflictError);
  });

  it('ensure returns one organisation under concurrent calls', async () => {
    const db = getDb();
    const name = uniqueName('ensure');
    const orgs = await Promise.all(Array.from({ length: 5 }, () => db.orgs.ensure(name)));
    expect(new Set(orgs.map((org) => org.id)).size).toBe(1);
    expect((await db.orgs.ensure(name)).id).toBe(orgs[0]!.id);
  });

  it('pages organisations in creation order', async () => {
    const db = getDb();
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push(await createTestOrg(db));
      await nextClockTick();
    }
    const first = await db.orgs.page({ after: created[0]!.id, limit: 1 });
    expect(first.data.map((o) => o.id)).toEqual([created[1]!.id]);
    expect(first.hasMore).toBe(true);
    expect((await db.orgs.page({ after: created[1]!.id, limit: 1000 })).data.map((o) => o.id)).toContain(created[2]!.id);
    expect(await db.orgs.page({ after: 'nope', limit: 5 })).toEqual({ data: [], hasMore: false });
  });
}
