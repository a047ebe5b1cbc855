import { parseArgs } from 'node:util';
import { Authenticator, DashboardAccounts, parseScopes } from '@svc/auth';
import { defaultKeyScopes, isGatewayError } from '@svc/core';
import type { Database } from '@svc/db';
import { type Kv, createRedisKv } from '@svc/kv';
import { ConfigError, parseEnv } from './runtime/env.js';
import { openDatabase } from './runtime/open-database.js';
import { CliError, parseDuration, parseNumber, usage } from './cli-args.js';

interface Context {
  db: Database;
  kv: Kv | undefined;
  authenticator: Authenticator;
  accounts: DashboardAccounts;
}

const options = {
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
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

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

/** Where the CLI writes: stdout for results (the key itself), stderr for notes. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** One command's input: its positional argument, the flags, the stores and where to write. */
interface Command {
  argument: string | undefined;
  values: Values;
  context: Context;
  io: CliIo;
}

async function migrate({ context, io }: Command): Promise<void> {
  const { db } = context;
  io.out(`migrations applied (${db.kind})`);
}

async function createOrg({ argument, values, context, io }: Command): Promise<void> {
  const { db } = context;
  if (!argument) throw new CliError('svc orgs create NAME: the name is missing');
  const org = await db.orgs.create({ name: argument, ...limits(values) });
  io.out(JSON.stringify({ id: org.id, name: org.name, plan: org.plan, rpm_limit: org.rpmLimit, tpm_limit: org.tpmLimit, monthly_budget_usd: org.monthlyBudgetUsd }));
}

async function listOrgs({ context, io }: Command): Promise<void> {
  const { db } = context;
  for (const org of await db.orgs.list()) io.out(`${org.id}  ${org.name}  plan=${org.plan}`);
}

async function createKey({ values, context, io }: Command): Promise<void> {
  const { db, authenticator } = context;
  if (!values.org) throw new CliError('svc keys create: --org NAME is required');
  const parsed = values.scopes ? parseScopes(values.scopes.split(',').map((s) => s.trim()).filter(Boolean)) : { scopes: [...defaultKeyScopes] };
  if ('unknown' in parsed) throw new CliError(`unknown scope '${parsed.unknown}'`);
  let expiresAt: Date | null = null;
  if (values['expires-in']) {
    const ms = parseDuration(values['expires-in']);
    if (ms === undefined || ms === 0) throw new CliError(`--expires-in must look like 30d, 12h, 90m or 3600s (got '${values['expires-in']}')`);
    expiresAt = new Date(Date.now() + ms);
  }
  let org = await db.orgs.ensure(values.org);
  // --rpm/--tpm/--budget-usd hold this key (on top of its organisation); a quota or plan is the organisation's.
  const { rpmLimit, tpmLimit, monthlyBudgetUsd, ...patch } = limits(values);
  if (Object.keys(patch).length > 0) org = (await db.orgs.update(org.id, patch)) ?? org;
  const { record, secret } = await authenticator.issue({
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

async function listKeys({ values, context, io }: Command): Promise<void> {
  const { db } = context;
  const org = values.org ? await db.orgs.getByName(values.org) : undefined;
  if (values.org && !org) throw new CliError(`no organisation named '${values.org}'`);
  for (const key of await db.keys.list(org?.id)) {
    const held = `${key.rpmLimit === null ? '' : `  rpm=${key.rpmLimit}`}${key.tpmLimit === null ? '' : `  tpm=${key.tpmLimit}`}${key.monthlyBudgetUsd === null ? '' : `  budget=$${key.monthlyBudgetUsd}`}`;
    io.out(`${key.id}  ${key.keyPrefix}…  ${key.status}  org=${key.orgId}  scopes=${key.scopes.join(',')}${held}`);
  }
}

async function revokeKey({ argument, context, io }: Command): Promise<void> {
  const { authenticator } = context;
  if (!argument) throw new CliError('svc keys revoke ID: the key id is missing');
  const record = await authenticator.revoke(argument);
  if (!record) throw new CliError(`no API key '${argument}'`);
  io.out(JSON.stringify({ id: record.id, status: 'revoked' }));
}

async function createUser({ values, context, io }: Command): Promise<void> {
  const { db } = context;
  if (!values.email || !values.org) throw new CliError('svc users create: --email ADDRESS and --org NAME are required');
  const role = values.role ?? 'member';
  if (role !== 'admin' && role !== 'member') throw new CliError(`--role must be admin or member (got '${role}')`);
  const org = await db.orgs.getByName(values.org);
  if (!org) throw new CliError(`no organisation named '${values.org}' (create it with svc orgs create)`);
  const { user, enrollment } = await context.accounts.create({ email: values.email, orgId: org.id, role });
  io.out(enrollment.url);
  io.err(`created dashboard user ${user.email} (${user.role}) of org ${org.name}; the enrollment link works once, until ${enrollment.expiresAt.toISOString()}, and only registers a passkey.`);
}

async function enrollUser({ argument, context, io }: Command): Promise<void> {
  const { db } = context;
  if (!argument) throw new CliError('svc users enroll EMAIL: the e-mail is missing');
  const user = await db.dashboardUsers.getByEmail(argument);
  if (!user) throw new CliError(`no dashboard user '${argument}'`);
  const enrollment = await context.accounts.issueEnrollment(user.id);
  io.out(enrollment.url);
  io.err(`new enrollment link for ${user.email}, valid once until ${enrollment.expiresAt.toISOString()}; earlier links no longer work.`);
}

async function listUsers({ context, io }: Command): Promise<void> {
  const { db } = context;
  for (const user of await db.dashboardUsers.list()) io.out(`${user.id}  ${user.email}  ${user.role}  org=${user.orgId}`);
}

/** `group action` -> the command. */
const commands: Record<string, (command: Command) => Promise<void>> = {
  'migrate': migrate,
  'orgs create': createOrg,
  'orgs list': listOrgs,
  'keys create': createKey,
  'keys list': listKeys,
  'keys revoke': revokeKey,
  'users create': createUser,
  'users enroll': enrollUser,
  'users list': listUsers,
};

async function run(command: string[], values: Values, context: Context, io: CliIo): Promise<void> {
  const [group, action, argument] = command;
  const key = group === 'migrate' ? 'migrate' : `${group} ${action}`;
  const handler = Object.hasOwn(commands, key) ? commands[key] : undefined;
  if (!handler) throw new CliError(`unknown command '${command.join(' ')}'\n\n${usage}`);
  await handler({ argument, values, context, io });
}

/** Runs one CLI command; resolves to the process exit code. */
export async function runCli(args: readonly string[], environment: Record<string, string | undefined>, io: CliIo): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`svc: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    io.out(usage);
    return parsed.values.help ? 0 : 2;
  }
  let context: Context | undefined;
  try {
    const env = parseEnv(environment);
    const db = await openDatabase(env, 'cli');
    const kv = env.REDIS_URL ? createRedisKv({ url: env.REDIS_URL }) : undefined;
    const accounts = new DashboardAccounts({ store: db, origin: env.dashboard.origin, enrollmentTtlMs: env.SVC_ENROLLMENT_TTL_SECS * 1000 });
    context = { db, kv, authenticator: new Authenticator({ store: db, ...(kv ? { bus: kv } : {}) }), accounts };
    await run(parsed.positionals, parsed.values, context, io);
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError || isGatewayError(error)) {
      io.err(`svc: ${error.message}`);
      return 2;
    }
    io.err(`svc: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await context?.kv?.close();
    await context?.db.close();
  }
}
