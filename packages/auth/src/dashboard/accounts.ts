import { createHash, randomBytes } from 'node:crypto';
import { GatewayError, invalidRequest, notFound } from '@svc/core';
import { DbConflictError } from '@svc/db';
import { type FailureThrottle, tooManyFailures } from '../failure-throttle.js';
import type { DashboardRole, DashboardStore, DashboardUserRecord } from './dashboard-store.js';

export interface DashboardAccountsSettings {
  store: DashboardStore;
  /** The dashboard origin; enrollment links point at `<origin>/dashboard/enroll`. */
  origin: string;
  /** How long an enrollment link works, ms. */
  enrollmentTtlMs: number;
  /** Counts unknown, expired and used enrollment tokens per source address. */
  throttle: FailureThrottle;
  now?: () => number;
}

/** A one-time link that signs its user in at AAL1, only to register a passkey. */
export interface EnrollmentLink {
  url: string;
  /** The secret inside the url (shown once). */
  token: string;
  expiresAt: Date;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a string looks like an e-mail address (the dashboard's account name). */
export function isEmail(value: string): boolean {
  return value.length <= 254 && emailPattern.test(value);
}

/**
 * Dashboard users and their enrollment links. The database keeps only the SHA-256 of a link's
 * token; issuing a new link voids the previous one, and redeeming spends it (one UPDATE).
 * Links live in the database rather than the kv so the `svc` CLI can issue them without Redis.
 */
export class DashboardAccounts {
  private readonly now: () => number;

  constructor(private readonly settings: DashboardAccountsSettings) {
    this.now = settings.now ?? Date.now;
  }

  /** Creates a user and its first enrollment link. 400 for a bad e-mail, 404 for an unknown org, 409 for a taken e-mail. */
  async create(input: { email: string; orgId: string; role: DashboardRole }): Promise<{ user: DashboardUserRecord; enrollment: EnrollmentLink }> {
    const email = input.email.trim().toLowerCase();
    if (!isEmail(email)) throw invalidRequest('email must be an e-mail address.', 'email');
    const org = await this.settings.store.orgs.get(input.orgId);
    if (!org) throw notFound(`No organisation '${input.orgId}'.`, 'org_id');
    let user: DashboardUserRecord;
    try {
      user = await this.settings.store.dashboardUsers.create({ email, orgId: org.id, role: input.role, webauthnUserId: randomBytes(32).toString('base64url') });
    } catch (error) {
      if (error instanceof DbConflictError) {
        throw new GatewayError({ status: 409, type: 'invalid_request_error', code: 'conflict', message: `A dashboard user '${email}' already exists.`, param: 'email' });
      }
      throw error;
    }
    const enrollment = await this.issueEnrollment(user.id);
    return { user: { ...user, enrollmentExpiresAt: enrollment.expiresAt }, enrollment };
  }

  /** A fresh enrollment link for an existing user (lost device); the previous link stops working. 404 for an unknown user. */
  async issueEnrollment(userId: string): Promise<EnrollmentLink> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now() + this.settings.enrollmentTtlMs);
    const user = await this.settings.store.dashboardUsers.setEnrollment(userId, hash(token), expiresAt);
    if (!user) throw notFound(`No dashboard user '${userId}'.`, 'id');
    return { url: `${this.settings.origin}/dashboard/enroll#token=${token}`, token, expiresAt };
  }

  /**
   * The user of a live link, spending it; undefined when unknown, expired, already used or the
   * user is disabled. 429 once `source` has presented too many such tokens.
   */
  async redeemEnrollment(token: string, source?: string): Promise<DashboardUserRecord | undefined> {
    const attempt = { source };
    this.settings.throttle.check(attempt, 'enrollment links');
    const user = token && token.length <= 200 ? await this.settings.store.dashboardUsers.redeemEnrollment(hash(token)) : undefined;
    if (user && user.disabledAt === null) return user;
    const wait = await this.settings.throttle.fail(attempt);
    if (wait > 0) throw tooManyFailures('enrollment links', wait);
    return undefined;
  }

  /**
   * Changes a user's role, or disables (or enables) them. Disabling ends every session of the user
   * at once, on every instance (sessions carry the user's generation); a role change applies to the
   * next request of each session (the user is read again on every request). 404 for an unknown user.
   */
  async update(id: string, patch: { role?: DashboardRole; disabled?: boolean }): Promise<DashboardUserRecord> {
    const users = this.settings.store.dashboardUsers;
    const user = await users.update(id, patch);
    if (!user) throw notFound(`No dashboard user '${id}'.`, 'id');
    return patch.disabled === true ? ((await users.endSessions(id)) ?? user) : user;
  }

  /** Ends every session of the user, on every instance. 404 for an unknown user. */
  async endSessions(id: string): Promise<DashboardUserRecord> {
    const user = await this.settings.store.dashboardUsers.endSessions(id);
    if (!user) throw notFound(`No dashboard user '${id}'.`, 'id');
    return user;
  }

  /** Deletes a user with their passkeys; their sessions end with them. 404 for an unknown user. */
  async delete(id: string): Promise<void> {
    if (!(await this.settings.store.dashboardUsers.delete(id))) throw notFound(`No dashboard user '${id}'.`, 'id');
  }

  /**
   * Removes one of a user's passkeys and ends the user's sessions (a lost device's among them);
   * resolves to the new session generation, so the session that asked can carry on. 404 when the
   * user has no such passkey.
   */
  async removePasskey(userId: string, passkeyId: string): Promise<number> {
    if (!(await this.settings.store.passkeys.delete(userId, passkeyId))) throw notFound(`No passkey '${passkeyId}'.`, 'id');
    return (await this.endSessions(userId)).sessionGeneration;
  }
}
