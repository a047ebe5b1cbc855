import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DashboardKv } from './dashboard-store.js';

/** NIST SP 800-63B authenticator assurance: aal2 after a passkey sign-in, aal1 from an enrollment link. */
export type AssuranceLevel = 'aal1' | 'aal2';

/** A dashboard session as stored in the kv. Times are epoch ms. */
export interface DashboardSession {
  userId: string;
  aal: AssuranceLevel;
  /** How the session was created. */
  method: 'passkey' | 'enrollment';
  /** The passkey that signed in (passkey sessions). */
  passkeyId: string | null;
  /** Sent back with every state-changing dashboard request (hidden field or `x-csrf-token`). */
  csrfToken: string;
  createdAt: number;
  /** Absolute end: the assurance level holds until then, without re-authentication. */
  expiresAt: number;
}

export interface SessionStoreSettings {
  kv: Pick<DashboardKv, 'get' | 'set' | 'delete'>;
  /** Lifetime of a passkey session (aal2), ms. */
  ttlMs: number;
  /** Lifetime of an enrollment session (aal1), ms. Default 15 min (or `ttlMs` when shorter). */
  enrollmentTtlMs?: number;
  now?: () => number;
}

const token = () => randomBytes(32).toString('base64url');
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Dashboard sessions in the shared kv (Redis when configured), so every instance sees the same
 * ones and a sign-out ends the session everywhere at once. The kv holds only the SHA-256 of the
 * session token, never the token itself; the entry's TTL is the session's lifetime.
 */
export class SessionStore {
  private readonly now: () => number;

  constructor(private readonly settings: SessionStoreSettings) {
    this.now = settings.now ?? Date.now;
  }

  /** Starts a session; returns the secret token (the cookie value) and the record. */
  async create(input: { userId: string; aal: AssuranceLevel; method: DashboardSession['method']; passkeyId?: string | null }): Promise<{ token: string; session: DashboardSession }> {
    const lifetime = input.aal === 'aal2' ? this.settings.ttlMs : Math.min(this.settings.enrollmentTtlMs ?? 15 * 60_000, this.settings.ttlMs);
    const createdAt = this.now();
    const session: DashboardSession = {
      userId: input.userId,
      aal: input.aal,
      method: input.method,
      passkeyId: input.passkeyId ?? null,
      csrfToken: token(),
      createdAt,
      expiresAt: createdAt + lifetime,
    };
    const secret = token();
    await this.settings.kv.set(key(secret), JSON.stringify(session), { ttlMs: lifetime });
    return { token: secret, session };
  }

  /** The live session of a token; undefined when unknown, signed out or expired. */
  async get(secret: string): Promise<DashboardSession | undefined> {
    if (!secret || secret.length > 200) return undefined;
    const value = await this.settings.kv.get(key(secret));
    if (value === null) return undefined;
    const session = JSON.parse(value) as DashboardSession;
    return session.expiresAt > this.now() ? session : undefined;
  }

  /** Ends the session on every instance; false when there was none. */
  async revoke(secret: string): Promise<boolean> {
    return this.settings.kv.delete(key(secret));
  }
}

/** Constant-time check of a presented CSRF token against the session's. */
export function csrfTokenMatches(session: Pick<DashboardSession, 'csrfToken'>, presented: string | null | undefined): boolean {
  if (!presented) return false;
  return timingSafeEqual(digest(session.csrfToken), digest(presented));
}

const key = (secret: string) => `dash:session:${createHash('sha256').update(secret).digest('hex')}`;
