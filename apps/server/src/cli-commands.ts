import type { parseArgs } from 'node:util';
import { parseScopes } from '@svc/auth';
import { defaultKeyScopes } from '@svc/core';
import { CliError, parseDuration, parseNumber } from './cli-args.js';
import type { CliStore } from './cli-store.js';

/** Where the CLI writes: stdout for results (the key itself), stderr for notes. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const options = {
  org: { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
  plan: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  'budget-usd': { type: 'string' },
  'token-quota': { type: 'string' },
  'expires-in': { type: 'string' },
  'free-models-only': { type: 'boolean' },
  email: { type: 'string' },
  role: { type: 'string' },
  grace: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function limits(values: Values) {
  const out: { rpmLimit?: number; tpmLimit?: number; monthlyBudgetUsd?: number; tokenQuota?: number; plan?: string; freeModelsOnly?: boolean } = {};
  const rpm = parseNumber('rpm', values.rpm, true);
  const tpm = parseNumber('tpm', values.tpm, true);
  const budget = parseNumber('budget-usd', values['budget-usd'], false);
  const quota = parseNumber('token-quota', values['token-quota'], true);
  if (rpm !== undefined) out.rpmLimit = rpm;
  if (tpm !== undefined) out.tpmLimit = tpm;
  if (budget !== undefined) out.monthlyBudgetUsd = budget;
  if (quota !== undefined) out.tokenQuota = quota;
  if (values.plan) out.plan = values.plan;
  if (values['free-models-only']) out.freeModelsOnly = true;
  return out;
}

/** One command's input: its positional argument, the flags, the store and where to write. */
interface Command {
  argument: string | undefined;
  values: Values;
  store: CliStore;
  io: CliIo;
}

async function migrate({ store, io }: Command): Promise<void> {
  io.out(`migrations applied (${store.kind})`);
}

async function createOrg({ argument, values, store, io }: Command): Promise<void> {
  if (!argument) throw new CliError('svc orgs create NAME: the name is missing');
  const org = await store.createOrg({ name: argument, ...limits(values) });
  io.out(JSON.stringify({ id: org.id, name: org.name, plan: org.plan, rpm_limit: org.rpmLimit, tpm_limit: org.tpmLimit, monthly_budget_usd: org.monthlyBudgetUsd }));
}

async function listOrgs({ store, io }: Command): Promise<void> {
  for (const org of await store.listOrgs()) io.out(`${org.id}  ${org.name}  plan=${org.plan}`);
}

async function createKey({ values, store, io }: Command): Promise<void> {
  if (!values.org) throw new CliError('svc keys create: --org NAME is required');
  const parsed = values.scopes ? parseScopes(values.scopes.split(',').map((s) => s.trim()).filter(Boolean)) : { scopes: [...defaultKeyScopes] };
  if ('unknown' in parsed) throw new CliError(`unknown scope '${parsed.unknown}'`);
  let expiresAt: Date | null = null;
  if (values['expires-in']) {
    const ms = parseDuration(values['expires-in']);
    if (ms === undefined || ms === 0) throw new CliError(`--expires-in must look like 30d, 12h, 90m or 3600s (got '${values['expires-in']}')`);
    expiresAt = new Date(Date.now() + ms);
  }
  let org = await store.ensureOrg(values.org);
  // --rpm/--tpm/--budget-usd hold this key (on top of its organisation); a quota or plan is the organisation's.
  const { rpmLimit, tpmLimit, monthlyBudgetUsd, ...patch } = limits(values);
  if (Object.keys(patch).length > 0) org = (await store.updateOrg(org.id, patch)) ?? org;
  const { record, secret } = await store.issueKey({
    orgId: org.id,
    name: values.name ?? null,
    scopes: parsed.scopes,
    expiresAt,
    rpmLimit: rpmLimit ?? null,
    tpmLimit: tpmLimit ?? null,
    monthlyBudgetUsd: monthlyBudgetUsd ?? null,
  });
  io.out(secret);
  const held = [
    record.rpmLimit === null ? '' : `; ${record.rpmLimit} requests/min`,
    record.tpmLimit === null ? '' : `; ${record.tpmLimit} tokens/min`,
    record.monthlyBudgetUsd === null ? '' : `; $${record.monthlyBudgetUsd} a month`,
  ].join('');
  io.err(`created ${record.id} for org ${org.name} (${org.id}); scopes ${record.scopes.join(',')}${held}${expiresAt ? `; expires ${expiresAt.toISOString()}` : ''}. The key is shown only this once.`);
}

async function listKeys({ values, store, io }: Command): Promise<void> {
  const org = values.org ? await store.orgByName(values.org) : undefined;
  if (values.org && !org) throw new CliError(`no organisation named '${values.org}'`);
  for (const key of await store.listKeys(org?.id)) {
    const held = `${key.rpmLimit === null ? '' : `  rpm=${key.rpmLimit}`}${key.tpmLimit === null ? '' : `  tpm=${key.tpmLimit}`}${key.monthlyBudgetUsd === null ? '' : `  budget=$${key.monthlyBudgetUsd}`}`;
    io.out(`${key.id}  ${key.keyPrefix}…  ${key.status}  org=${key.orgId}  scopes=${key.scopes.join(',')}${held}`);
  }
}

async function revokeKey({ argument, store, io }: Command): Promise<void> {
  if (!argument) throw new CliError('svc keys revoke ID: the key id is missing');
  const record = await store.revokeKey(argument);
  if (!record) throw new CliError(`no API key '${argument}'`);
  io.out(JSON.stringify({ id: record.id, status: 'revoked' }));
}

async function createUser({ values, store, io }: Command): Promise<void> {
  if (!values.email || !values.org) throw new CliError('svc users create: --email ADDRESS and --org NAME are required');
  const role = values.role ?? 'member';
  if (role !== 'admin' && role !== 'member') throw new CliError(`--role must be admin or member (got '${role}')`);
  const org = await store.orgByName(values.org);
  if (!org) throw new CliError(`no organisation named '${values.org}' (create it with svc orgs create)`);
  const { user, enrollment } = await store.createUser({ email: values.email, orgId: org.id, role });
  io.out(enrollment.url);
  io.err(`created dashboard user ${user.email} (${user.role}) of org ${org.name}; the enrollment link works once, until ${enrollment.expiresAt.toISOString()}, and only registers a passkey.`);
}

async function enrollUser({ argument, store, io }: Command): Promise<void> {
  if (!argument) throw new CliError('svc users enroll EMAIL: the e-mail is missing');
  const user = await store.userByEmail(argument);
  if (!user) throw new CliError(`no dashboard user '${argument}'`);
  const enrollment = await store.issueEnrollment(user.id);
  io.out(enrollment.url);
  io.err(`new enrollment link for ${user.email}, valid once until ${enrollment.expiresAt.toISOString()}; earlier links no longer work.`);
}

async function listUsers({ store, io }: Command): Promise<void> {
  for (const user of await store.listUsers()) io.out(`${user.id}  ${user.email}  ${user.role}  org=${user.orgId}${user.disabledAt ? '  disabled' : ''}`);
}

/** The user an e-mail names, or a CliError. */
async function namedUser({ argument, store }: Command, usage: string) {
  if (!argument) throw new CliError(`${usage}: the e-mail is missing`);
  const user = await store.userByEmail(argument);
  if (!user) throw new CliError(`no dashboard user '${argument}'`);
  return user;
}

async function disableUser(command: Command): Promise<void> {
  const user = await command.store.updateUser((await namedUser(command, 'svc users disable EMAIL')).id, { disabled: true });
  command.io.out(`${user.email} disabled: their sessions ended on every instance, and they cannot sign in until svc users enable`);
}

async function enableUser(command: Command): Promise<void> {
  const user = await command.store.updateUser((await namedUser(command, 'svc users enable EMAIL')).id, { disabled: false });
  command.io.out(`${user.email} enabled`);
}

async function setUserRole(command: Command): Promise<void> {
  const role = command.values.role;
  if (role !== 'admin' && role !== 'member') throw new CliError(`svc users set-role EMAIL --role admin|member (got '${role ?? ''}')`);
  const user = await command.store.updateUser((await namedUser(command, 'svc users set-role EMAIL')).id, { role });
  command.io.out(`${user.email} is now ${user.role}; their sessions have that role from their next request`);
}

async function deleteUser(command: Command): Promise<void> {
  const user = await namedUser(command, 'svc users delete EMAIL');
  await command.store.deleteUser(user.id);
  command.io.out(`${user.email} deleted, with their passkeys and sessions`);
}

async function endUserSessions(command: Command): Promise<void> {
  const user = await namedUser(command, 'svc users end-sessions EMAIL');
  await command.store.endUserSessions(user.id);
  command.io.out(`every session of ${user.email} ended, on every instance`);
}

async function rotateMasterKey({ values, store, io }: Command): Promise<void> {
  const graceMs = values.grace === undefined ? 0 : parseDuration(values.grace);
  if (graceMs === undefined) throw new CliError(`--grace must look like 10m, 1h or 30s (got '${values.grace}')`);
  const rotated = await store.rotateMasterKey(graceMs);
  io.out(rotated.secret);
  const previous = rotated.superseded.map((key) => (key.until ? `${key.id} works until ${key.until.toISOString()}` : `${key.id} revoked`)).join('; ');
  io.err(`new master key ${rotated.id}, shown only this once: set SVC_MASTER_KEY to it on every instance before its next restart. Previous: ${previous || 'none'}.`);
}

async function backup({ argument, store, io }: Command): Promise<void> {
  if (!argument) throw new CliError('svc backup FILE: the file to write is missing');
  const bytes = await store.backup(argument);
  io.out(argument);
  io.err(`backup of the embedded store written to ${argument} (${bytes} bytes); restore it with svc restore ${argument} while no gateway runs on SVC_DATA_DIR`);
}

/** `group action` (or a single word) -> the command. */
export const commands: Record<string, (command: Command) => Promise<void>> = {
  'migrate': migrate,
  'backup': backup,
  'orgs create': createOrg,
  'orgs list': listOrgs,
  'keys create': createKey,
  'keys list': listKeys,
  'keys revoke': revokeKey,
  'users create': createUser,
  'users enroll': enrollUser,
  'users list': listUsers,
  'users disable': disableUser,
  'users enable': enableUser,
  'users set-role': setUserRole,
  'users delete': deleteUser,
  'users end-sessions': endUserSessions,
  'master-key rotate': rotateMasterKey,
};

