import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMigrationsFolder, migratePglite } from '../migrate.js';
import { openPglite } from '../pglite-start.js';
import { mergeStaged } from './merge-staged.js';
import { SOFT_REFERENCES } from './soft-references.js';
import { describeTables, ident } from './table-catalog.js';

const live = { org: '00000000-0000-4000-8000-0000000000a1', key: 'key_live' };
const old = { org: '00000000-0000-4000-8000-0000000000b1', key: 'key_old', other: '00000000-0000-4000-8000-0000000000b2' };

let pg: PGlite;
beforeAll(async () => {
  pg = await openPglite('memory://');
  await migratePglite(pg, { migrationsFolder: defaultMigrationsFolder(), schema: undefined });
  await pg.exec(`
    insert into organizations (id, name) values ('${live.org}', 'default');
    insert into api_keys (id, org_id, key_hash, key_prefix) values ('${live.key}', '${live.org}', 'hash-master', 'sk');
    insert into usage_events (request_id, org_id, key_id, model, provider, status) values ('req_live', '${live.org}', '${live.key}', 'm', 'p', 200);
    insert into memories (org_id, subject, role, text) values ('${live.org}', 'k:${live.key}', 'user', 'I am new here.');
    insert into org_settings (org_id, settings) values ('${live.org}', '{"from": "live"}');`);
}, 120_000);
afterAll(() => pg.close());

async function stageOldAndMerge(): Promise<Record<string, number>> {
  return pg.transaction(async (tx) => {
    const tables = await describeTables(tx, 'public');
    await tx.exec('create schema staged');
    for (const table of tables) await tx.exec(`create table staged.${ident(table.name)} (like public.${ident(table.name)} including defaults)`);
    await tx.exec(`
      insert into staged.organizations (id, name, plan, created_at, updated_at) values ('${old.org}', 'default', 'pro', now(), now()), ('${old.other}', 'acme', 'free', now(), now());
      insert into staged.api_keys (id, org_id, key_hash, key_prefix, scopes, status, created_at) values ('${old.key}', '${old.org}', 'hash-master', 'sk', '{}', 'active', now());
      insert into staged.usage_events (request_id, org_id, key_id, model, provider, status, prompt_tokens, completion_tokens, cached_tokens, cost_usd, baseline_cost_usd, cache_hit, latency_ms, stream, usage_estimated, created_at)
        values ('req_old', '${old.org}', '${old.key}', 'm', 'p', 200, 0, 0, 0, 0, 0, false, 0, false, false, now());
      insert into staged.org_settings (org_id, settings, updated_at) values ('${old.org}', '{"from": "old"}', now());`);
    const added = await mergeStaged(tx, tables, 'staged');
    await tx.exec('drop schema staged cascade');
    return added;
  });
}

async function rows(sql: string): Promise<unknown[]> {
  return (await pg.query(sql)).rows;
}

describe('mergeStaged', () => {
  it('keeps the staged identity of a row both sides hold under two ids, and points every live reference at it', async () => {
    const added = await stageOldAndMerge();
    expect(added).toMatchObject({ organizations: 2, api_keys: 1, usage_events: 1 });
    expect(await rows('select id, name, plan from organizations order by name')).toEqual([
      { id: old.other, name: 'acme', plan: 'free' },
      { id: old.org, name: 'default', plan: 'pro' },
    ]);
    expect(await rows('select id, org_id from api_keys')).toEqual([{ id: old.key, org_id: old.org }]);
    expect(await rows('select request_id, org_id, key_id from usage_events order by request_id')).toEqual([
      { request_id: 'req_live', org_id: old.org, key_id: old.key },
      { request_id: 'req_old', org_id: old.org, key_id: old.key },
    ]);
    expect(await rows('select org_id, subject from memories')).toEqual([{ org_id: old.org, subject: `k:${old.key}` }]);
    // A row keyed by the organisation itself: what was written since wins over the staged one.
    expect(await rows('select settings from org_settings')).toEqual([{ settings: { from: 'live' } }]);
  });

  it('changes nothing when run again with the same staged rows (an interrupted upgrade runs again)', async () => {
    const before = await rows('select * from usage_events order by request_id');
    const added = await stageOldAndMerge();
    expect(Object.values(added).every((count) => count === 0)).toBe(true);
    expect(await rows('select * from usage_events order by request_id')).toEqual(before);
    expect(await rows('select count(*)::int as n from organizations')).toEqual([{ n: 2 }]);
  });

  it('knows how every id column of the schema points at its table (a foreign key or a soft reference)', async () => {
    const idColumns: Record<string, string> = { org_id: 'organizations', key_id: 'api_keys', user_id: 'dashboard_users' };
    const unlinked: string[] = [];
    for (const table of await describeTables(pg, 'public')) {
      for (const column of table.columns) {
        const parent = idColumns[column.name];
        if (!parent) continue;
        const linked =
          table.references.some((reference) => reference.column === column.name && reference.parent === parent) ||
          SOFT_REFERENCES.some((soft) => soft.table === table.name && soft.column === column.name && soft.parent === parent);
        if (!linked) unlinked.push(`${table.name}.${column.name}`);
      }
    }
    expect(unlinked).toEqual([]);
  });
});
