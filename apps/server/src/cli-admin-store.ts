import { createWriteStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import * as v from 'valibot';
import { CliError } from './cli-args.js';
import type { CliStore, EnrollmentView, KeyView, OrgSettings, OrgView, UserView } from './cli-store.js';

// The admin API's answers (DESIGN.md §3), read at this boundary.
const limit = v.nullable(v.number());
const orgWire = v.object({ id: v.string(), name: v.string(), plan: v.string(), rpm_limit: limit, tpm_limit: limit, monthly_budget_usd: limit });
const keyWire = v.object({ id: v.string(), org_id: v.string(), prefix: v.string(), status: v.string(), scopes: v.array(v.string()), rpm_limit: limit, tpm_limit: limit, monthly_budget_usd: limit });
const createdKeyWire = v.object({ ...v.omit(keyWire, ['prefix', 'status']).entries, key: v.string() });
const userWire = v.object({ id: v.string(), email: v.string(), role: v.string(), org_id: v.string(), disabled_at: v.optional(v.nullable(v.string()), null) });
const createdUserWire = v.object({ ...userWire.entries, enrollment_url: v.string(), enrollment_expires_at: v.string() });
const enrollmentWire = v.object({ enrollment_url: v.string(), expires_at: v.string() });
const list = <T extends v.GenericSchema>(item: T) => v.object({ data: v.array(item), has_more: v.optional(v.boolean(), false), last_id: v.optional(v.nullable(v.string()), null) });
const rotatedWire = v.object({ id: v.string(), key: v.string(), superseded: v.array(v.object({ id: v.string(), expires_at: v.nullable(v.string()) })) });
const errorWire = v.object({ error: v.object({ message: v.string() }) });

const toOrg = (org: v.InferOutput<typeof orgWire>): OrgView => ({ id: org.id, name: org.name, plan: org.plan, rpmLimit: org.rpm_limit, tpmLimit: org.tpm_limit, monthlyBudgetUsd: org.monthly_budget_usd });
const toKey = (key: v.InferOutput<typeof keyWire>): KeyView => ({
  id: key.id,
  orgId: key.org_id,
  keyPrefix: key.prefix,
  status: key.status,
  scopes: key.scopes,
  rpmLimit: key.rpm_limit,
  tpmLimit: key.tpm_limit,
  monthlyBudgetUsd: key.monthly_budget_usd,
});
const toUser = (user: v.InferOutput<typeof userWire>): UserView => ({ id: user.id, email: user.email, role: user.role, orgId: user.org_id, disabledAt: user.disabled_at ? new Date(user.disabled_at) : null });
const toEnrollment = (url: string, expiresAt: string): EnrollmentView => ({ url, expiresAt: new Date(expiresAt) });

function orgBody(settings: OrgSettings & { name?: string }) {
  return {
    ...(settings.name !== undefined ? { name: settings.name } : {}),
    ...(settings.plan !== undefined ? { plan: settings.plan } : {}),
    ...(settings.rpmLimit !== undefined ? { rpm_limit: settings.rpmLimit } : {}),
    ...(settings.tpmLimit !== undefined ? { tpm_limit: settings.tpmLimit } : {}),
    ...(settings.monthlyBudgetUsd !== undefined ? { monthly_budget_usd: settings.monthlyBudgetUsd } : {}),
    ...(settings.tokenQuota !== undefined ? { token_quota: settings.tokenQuota } : {}),
    ...(settings.freeModelsOnly !== undefined ? { free_models_only: settings.freeModelsOnly } : {}),
  };
}

/** One admin API call: the parsed answer, undefined on 404 when `missing` allows it, else a CliError with the gateway's message. */
type Call = <T extends v.GenericSchema>(method: string, path: string, schema: T, settings?: { body?: unknown; missing?: boolean }) => Promise<v.InferOutput<T> | undefined>;

function caller(controlUrl: string, masterKey: string): Call {
  return async (method, path, schema, settings = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${masterKey}`, ...(settings.body === undefined ? {} : { 'content-type': 'application/json' }) };
    let response: Response;
    try {
      response = await fetch(`${controlUrl}${path}`, { method, headers, ...(settings.body === undefined ? {} : { body: JSON.stringify(settings.body) }) });
    } catch (error) {
      throw new CliError(`the gateway's admin API at ${controlUrl} did not answer (${error instanceof Error ? error.message : String(error)})`);
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (response.status === 404 && settings.missing) return undefined;
    if (!response.ok) {
      const message = v.is(errorWire, answer) ? answer.error.message : `HTTP ${response.status}`;
      const hint = response.status === 401 || response.status === 403 ? '; SVC_MASTER_KEY must be the master key that gateway runs with' : '';
      throw new CliError(`the gateway's admin API at ${controlUrl} answered ${response.status}: ${message}${hint}`);
    }
    const parsed = v.safeParse(schema, answer);
    if (!parsed.success) throw new CliError(`the gateway's admin API at ${controlUrl} answered ${method} ${path} in a shape this CLI does not know`);
    return parsed.output;
  };
}

/** `POST /v1/admin/backup` into `file` (written aside, then renamed); resolves to its size. */
async function downloadBackup(controlUrl: string, masterKey: string, file: string): Promise<number> {
  const response = await fetch(`${controlUrl}/v1/admin/backup`, { method: 'POST', headers: { authorization: `Bearer ${masterKey}` } }).catch((error: unknown) => {
    throw new CliError(`the gateway's admin API at ${controlUrl} did not answer (${error instanceof Error ? error.message : String(error)})`);
  });
  if (!response.ok || !response.body) {
    const answer: unknown = await response.json().catch(() => undefined);
    throw new CliError(`the gateway's admin API at ${controlUrl} answered ${response.status}: ${v.is(errorWire, answer) ? answer.error.message : 'no backup'}`);
  }
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(`${file}.partial`));
  await rename(`${file}.partial`, file);
  return (await stat(file)).size;
}

/** Requires an answer (the call allows no 404). */
function must<T>(value: T | undefined): T {
  if (value === undefined) throw new CliError('the admin API answered nothing');
  return value;
}

/** Every row of an admin list, page after page (`after=<last_id>` while `has_more`). */
async function every<T extends v.GenericSchema>(call: Call, path: string, item: T): Promise<v.InferOutput<T>[]> {
  const rows: v.InferOutput<T>[] = [];
  const separator = path.includes('?') ? '&' : '?';
  let after: string | null = null;
  do {
    const page: { data: v.InferOutput<T>[]; has_more: boolean; last_id: string | null } = must(await call('GET', `${path}${separator}limit=1000${after ? `&after=${encodeURIComponent(after)}` : ''}`, list(item)));
    rows.push(...page.data);
    after = page.has_more ? page.last_id : null;
  } while (after);
  return rows;
}

/** The CLI's store as the admin API of the gateway at `controlUrl`, called with the master key. */
export function adminApiStore(controlUrl: string, masterKey: string): CliStore {
  const call = caller(controlUrl, masterKey);
  const listOrgs = async () => (await every(call, '/v1/admin/orgs', orgWire)).map(toOrg);
  const orgByName = async (name: string) => (await listOrgs()).find((org) => org.name === name);
  const createOrg = async (input: OrgSettings & { name: string }) => toOrg(must(await call('POST', '/v1/admin/orgs', orgWire, { body: orgBody(input) })));
  const listUsers = async () => (await every(call, '/v1/admin/users', userWire)).map(toUser);
  const user = (id: string) => `/v1/admin/users/${encodeURIComponent(id)}`;
  return {
    kind: 'pglite',
    createOrg,
    ensureOrg: async (name) => (await orgByName(name)) ?? createOrg({ name }),
    updateOrg: async (id, patch) => {
      const org = await call('PATCH', `/v1/admin/orgs/${encodeURIComponent(id)}`, orgWire, { body: orgBody(patch), missing: true });
      return org && toOrg(org);
    },
    orgByName,
    listOrgs,
    async issueKey(input) {
      const body = {
        org_id: input.orgId,
        name: input.name,
        scopes: input.scopes,
        expires_at: input.expiresAt?.toISOString() ?? null,
        rpm_limit: input.rpmLimit,
        tpm_limit: input.tpmLimit,
        monthly_budget_usd: input.monthlyBudgetUsd,
      };
      const created = must(await call('POST', '/v1/admin/keys', createdKeyWire, { body }));
      const record = { id: created.id, orgId: created.org_id, scopes: created.scopes, rpmLimit: created.rpm_limit, tpmLimit: created.tpm_limit, monthlyBudgetUsd: created.monthly_budget_usd };
      return { record, secret: created.key };
    },
    listKeys: async (orgId) => (await every(call, `/v1/admin/keys${orgId ? `?org_id=${encodeURIComponent(orgId)}` : ''}`, keyWire)).map(toKey),
    revokeKey: (id) => call('DELETE', `/v1/admin/keys/${encodeURIComponent(id)}`, v.object({ id: v.string() }), { missing: true }),
    async createUser(input) {
      const created = must(await call('POST', '/v1/admin/users', createdUserWire, { body: { email: input.email, org_id: input.orgId, role: input.role } }));
      return { user: toUser(created), enrollment: toEnrollment(created.enrollment_url, created.enrollment_expires_at) };
    },
    userByEmail: async (email) => (await listUsers()).find((user) => user.email === email.toLowerCase()),
    async issueEnrollment(userId) {
      const enrollment = must(await call('POST', `/v1/admin/users/${encodeURIComponent(userId)}/enrollment`, enrollmentWire));
      return toEnrollment(enrollment.enrollment_url, enrollment.expires_at);
    },
    listUsers,
    backup: (file) => downloadBackup(controlUrl, masterKey, file),
    updateUser: async (id, patch) => toUser(must(await call('PATCH', user(id), userWire, { body: patch }))),
    deleteUser: async (id) => {
      must(await call('DELETE', user(id), v.object({ id: v.string() })));
    },
    endUserSessions: async (id) => {
      must(await call('DELETE', `${user(id)}/sessions`, v.object({ user_id: v.string() })));
    },
    async rotateMasterKey(graceMs) {
      const rotated = must(await call('POST', '/v1/admin/master-key/rotate', rotatedWire, { body: { grace_seconds: Math.round(graceMs / 1000) } }));
      return { id: rotated.id, secret: rotated.key, superseded: rotated.superseded.map((key) => ({ id: key.id, until: key.expires_at ? new Date(key.expires_at) : null })) };
    },
    close: async () => {},
  };
}
