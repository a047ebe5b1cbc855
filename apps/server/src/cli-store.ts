import { stat } from 'node:fs/promises';
import { Authenticator, DashboardAccounts, FailureThrottle, defaultSignInLimits } from '@svc/auth';
import type { Organization, Scope } from '@svc/core';
import { createMemoryKv, createRedisKv } from '@svc/kv';
import type { Env } from './runtime/env.js';
import { moveFile } from './move-file.js';
import { openDatabase } from './runtime/open-database.js';

/** What an organisation's CLI lines show. */
export type OrgView = Pick<Organization, 'id' | 'name' | 'plan' | 'rpmLimit' | 'tpmLimit' | 'monthlyBudgetUsd'>;

/** The organisation settings the CLI's flags set. */
export interface OrgSettings {
  plan?: string;
  rpmLimit?: number;
  tpmLimit?: number;
  monthlyBudgetUsd?: number;
  tokenQuota?: number;
  freeModelsOnly?: boolean;
}

/** What an API key's CLI lines show (never its secret). */
export interface KeyView {
  id: string;
  orgId: string;
  keyPrefix: string;
  status: string;
  scopes: readonly string[];
  rpmLimit: number | null;
  tpmLimit: number | null;
  monthlyBudgetUsd: number | null;
}

export interface NewKey {
  orgId: string;
  name: string | null;
  scopes: readonly Scope[];
  expiresAt: Date | null;
  rpmLimit: number | null;
  tpmLimit: number | null;
  monthlyBudgetUsd: number | null;
}

export interface UserView {
  id: string;
  email: string;
  role: string;
  orgId: string;
  disabledAt: Date | null;
}

/** A new master key from `svc master-key rotate` (the secret shown once) and what it superseded. */
export interface RotatedMasterKey {
  id: string;
  secret: string;
  superseded: Array<{ id: string; until: Date | null }>;
}

export interface EnrollmentView {
  url: string;
  expiresAt: Date;
}

/**
 * Where the CLI's commands read and write: the stores themselves (no gateway runs on them, or
 * they are shared: PostgreSQL), or the admin API of the gateway that holds the embedded directory.
 */
export interface CliStore {
  /** The relational store's kind (`pglite`, `postgres`). */
  kind: string;
  createOrg(input: OrgSettings & { name: string }): Promise<OrgView>;
  /** The organisation named so, created when there is none. */
  ensureOrg(name: string): Promise<OrgView>;
  updateOrg(id: string, patch: OrgSettings): Promise<OrgView | undefined>;
  orgByName(name: string): Promise<OrgView | undefined>;
  listOrgs(): Promise<OrgView[]>;
  issueKey(input: NewKey): Promise<{ record: Omit<KeyView, 'keyPrefix' | 'status'>; secret: string }>;
  listKeys(orgId: string | undefined): Promise<KeyView[]>;
  /** The revoked key's id; undefined when there is no such key. */
  revokeKey(id: string): Promise<{ id: string } | undefined>;
  createUser(input: { email: string; orgId: string; role: 'admin' | 'member' }): Promise<{ user: UserView; enrollment: EnrollmentView }>;
  userByEmail(email: string): Promise<UserView | undefined>;
  /** A new one-time enrollment link; the previous one stops working. */
  issueEnrollment(userId: string): Promise<EnrollmentView>;
  listUsers(): Promise<UserView[]>;
  /** Writes a backup of the embedded store to `file` (from one snapshot, the gateway serving meanwhile); resolves to its size in bytes. */
  backup(file: string): Promise<number>;
  /** Changes a user's role, or disables (ending their sessions) or enables them; a GatewayError 404 for an unknown user. */
  updateUser(id: string, patch: { role?: 'admin' | 'member'; disabled?: boolean }): Promise<UserView>;
  deleteUser(id: string): Promise<void>;
  /** Ends every session of the user, on every instance. */
  endUserSessions(id: string): Promise<void>;
  /** Issues a new master key and supersedes the others (revoked, or working `graceMs` more). */
  rotateMasterKey(graceMs: number): Promise<RotatedMasterKey>;
  close(): Promise<void>;
}

/**
 * The stores `env` names, opened for the CLI (REDIS_URL carries revocations to running
 * instances at once).
 *
 * @throws ConfigError naming SVC_DATA_DIR when a live gateway holds the embedded directory (its cause the DataDirError).
 */
export async function openDirectStore(env: Env, note: (line: string) => void): Promise<CliStore> {
  const db = await openDatabase(env, 'cli', (told) => note(told.message));
  const kv = env.REDIS_URL ? createRedisKv({ url: env.REDIS_URL }) : undefined;
  const local = createMemoryKv();
  // The CLI redeems no enrollment link: its throttle only completes the settings.
  const throttle = new FailureThrottle({ kv: local, name: 'dash_enrollment', ...defaultSignInLimits.enrollment });
  const accounts = new DashboardAccounts({ store: db, origin: env.dashboard.origin, enrollmentTtlMs: env.SVC_ENROLLMENT_TTL_SECS * 1000, throttle });
  const authenticator = new Authenticator({ store: db, kv: kv ?? local, masterKeyGraceMs: env.SVC_MASTER_KEY_GRACE_SECS * 1000, ...(kv ? { bus: kv } : {}) });
  return {
    kind: db.kind,
    createOrg: (input) => db.orgs.create(input),
    ensureOrg: (name) => db.orgs.ensure(name),
    updateOrg: (id, patch) => db.orgs.update(id, patch),
    orgByName: (name) => db.orgs.getByName(name),
    listOrgs: () => db.orgs.list(),
    issueKey: (input) => authenticator.issue(input),
    listKeys: (orgId) => db.keys.list(orgId),
    revokeKey: (id) => authenticator.revoke(id),
    createUser: (input) => accounts.create(input),
    userByEmail: (email) => db.dashboardUsers.getByEmail(email),
    issueEnrollment: (userId) => accounts.issueEnrollment(userId),
    listUsers: () => db.dashboardUsers.list(),
    async backup(file) {
      const made = await db.backup();
      await moveFile(made.path, file);
      return (await stat(file)).size;
    },
    updateUser: (id, patch) => accounts.update(id, patch),
    deleteUser: (id) => accounts.delete(id),
    endUserSessions: async (id) => {
      await accounts.endSessions(id);
    },
    rotateMasterKey: async (graceMs) => {
      const rotated = await authenticator.rotateMasterKey(graceMs);
      return { id: rotated.record.id, secret: rotated.secret, superseded: rotated.superseded };
    },
    async close() {
      await kv?.close();
      await local.close();
      await db.close();
    },
  };
}
