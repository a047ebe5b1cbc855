import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { PGlite as PGlite03 } from 'pglite-0.3';
import { defaultMigrationsFolder } from '../migrate.js';
import { journalUpTo, readJournal } from '../migration-journal.js';
import { openPglite } from '../pglite-start.js';
import { sha256Hex } from './fixtures.js';

/** The schema level of the November release (1aae239, 25 Nov 2026, PGlite 0.3.8). */
export const NOVEMBER_MIGRATION = '0008_api_key_limits';

/** Rows as the November release wrote them, and the ones a release with PGlite 0.4 wrote next. */
export const november = {
  defaultOrg: '00000000-0000-4000-8000-00000000d0d0',
  acme: '00000000-0000-4000-8000-00000000acac',
  masterSecret: 'sk-svc-N0vember-release-master-7f3a9c2e41b8d5',
  master: 'key_novembermaster0001',
  app: 'key_novemberapp000001',
  appSecret: 'sk-svc-november-app-key-secret-000000001',
  user: '00000000-0000-4000-8000-0000000005e1',
};
export const affected = {
  defaultOrg: '00000000-0000-4000-8000-00000000d1d1',
  acme: '00000000-0000-4000-8000-00000000a1a1',
  master: 'key_affectedmaster0001',
  app2: 'key_affectedapp200001',
  app2Secret: 'sk-svc-affected-app2-secret-000000000001',
  user: '00000000-0000-4000-8000-0000000005e2',
};

const usage = (id: string, org: string, key: string, cost: number) =>
  `insert into usage_events (request_id, org_id, key_id, model, provider, prompt_tokens, completion_tokens, cost_usd, status) values ('${id}', '${org}', '${key}', 'mock/mock-speed', 'mock', 10, 5, ${cost}, 200);`;

/** What the November release had written after an organisation, a key, requests and memories. */
const NOVEMBER_ROWS = `
insert into organizations (id, name) values ('${november.defaultOrg}', 'default');
insert into organizations (id, name, plan, rpm_limit, monthly_budget_usd) values ('${november.acme}', 'acme', 'pro', 100, 50);
insert into org_settings (org_id, settings) values ('${november.acme}', '{"default_intelligence_mode": "cache"}');
insert into api_keys (id, org_id, name, key_hash, key_prefix, scopes) values
  ('${november.master}', '${november.defaultOrg}', 'master', '${sha256Hex(november.masterSecret)}', 'sk-svc-nove', '{admin,inference:chat}'),
  ('${november.app}', '${november.acme}', 'app', '${sha256Hex(november.appSecret)}', 'sk-svc-nove', '{inference:chat}');
${usage('req_nov_1', november.acme, november.app, 0.001)}
${usage('req_nov_2', november.acme, november.app, 0.002)}
${usage('req_nov_3', november.defaultOrg, november.master, 0.004)}
insert into routing_decisions (request_id, org_id, model, provider, source, outcome) values ('req_nov_1', '${november.acme}', 'mock/mock-speed', 'mock', 'auto', 'success');
insert into memories (org_id, role, text) values ('${november.acme}', 'user', 'I live in Lisbon.'), ('${november.acme}', 'assistant', 'Noted: Lisbon.');
insert into dashboard_users (id, email, org_id, role, webauthn_user_id) values ('${november.user}', 'ops@acme.test', '${november.acme}', 'admin', 'wa-november');
insert into passkeys (id, user_id, name, credential_id, public_key, device_type) values ('pk_nov', '${november.user}', 'laptop', 'cred-november', 'pub', 'multiDevice');
`;

/** What a release with PGlite 0.4 wrote next on the same directory, not seeing the rows above. */
const AFFECTED_ROWS = `
insert into organizations (id, name) values ('${affected.defaultOrg}', 'default'), ('${affected.acme}', 'acme');
insert into api_keys (id, org_id, name, key_hash, key_prefix, scopes) values
  ('${affected.master}', '${affected.defaultOrg}', 'master', '${sha256Hex(november.masterSecret)}', 'sk-svc-nove', '{admin,inference:chat}'),
  ('${affected.app2}', '${affected.acme}', 'app2', '${sha256Hex(affected.app2Secret)}', 'sk-svc-affe', '{inference:chat}');
${usage('req_aff_1', affected.defaultOrg, affected.master, 0.008)}
${usage('req_aff_2', affected.acme, affected.app2, 0.016)}
insert into memories (org_id, subject, role, text) values ('${affected.defaultOrg}', 'k:${affected.master}', 'user', 'I work as a nurse.');
insert into dashboard_users (id, email, org_id, role, webauthn_user_id) values ('${affected.user}', 'ops@acme.test', '${affected.acme}', 'member', 'wa-affected');
insert into passkeys (id, user_id, name, credential_id, public_key, device_type) values ('pk_aff', '${affected.user}', 'phone', 'cred-affected', 'pub', 'multiDevice');
`;

/** Writes a data directory as the November release left it: PGlite 0.3.8, its schema, its rows. */
export async function writeNovemberDirectory(dir: string): Promise<void> {
  const folder = defaultMigrationsFolder();
  const level = (await readJournal(folder)).find((entry) => entry.tag === NOVEMBER_MIGRATION);
  if (!level) throw new Error(`${NOVEMBER_MIGRATION} is not in the journal`);
  const upTo = await journalUpTo(folder, level.when);
  const pg = await PGlite03.create(dir);
  try {
    // PGlite 0.3's client has the query interface drizzle's PGlite driver calls.
    await migrate(drizzle(pg as unknown as PGlite), { migrationsFolder: upTo.folder, migrationsSchema: 'drizzle' });
    await pg.exec(NOVEMBER_ROWS);
  } finally {
    await pg.close();
    await upTo.remove();
  }
}

/** Opens the directory as a release with PGlite 0.4 did (its default database), migrates it and writes there. */
export async function writeAffectedRows(dir: string): Promise<void> {
  const pg = await openPglite(dir);
  try {
    await migrate(drizzle(pg), { migrationsFolder: defaultMigrationsFolder(), migrationsSchema: 'drizzle' });
    await pg.exec(AFFECTED_ROWS);
  } finally {
    await pg.close();
  }
}
