import { createHash, randomBytes } from 'node:crypto';
import { GatewayError, invalidRequest, notFound } from '@svc/core';
import { DbConflictError } from '@svc/db';
import type { DashboardRole, DashboardStore, DashboardUserRecord } from './dashboard-store.js';

export interface DashboardAccountsSettings {
  store: DashboardStore;
  /** The dashboard origin; enrollment links point at `<origin>/dashboard/enroll`. */
  origin: string;
  /** How long an enrollment link works, ms. */
  enrollmentTtlMs: number;
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

  /** The user of a live link, spending it; undefined when unknown, expired or already used. */
  redeemEnrollment(token: string): Promise<DashboardUserRecord | undefined> {
    if (!token || token.length > 200) return Promise.resolve(undefined);
    return this.settings.store.dashboardUsers.redeemEnrollment(hash(token));
  }
}
