import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DashboardKv, DashboardUserRecord } from './dashboard-store.js';

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
  /** The user's session generation when it started: it is live only while the user's is the same (absent: 0). */
  generation?: number;
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
  async create(input: { userId: string; aal: AssuranceLevel; method: DashboardSession['method']; passkeyId?: string | null; generation?: number }): Promise<{ token: string; session: DashboardSession }> {
    const lifetime = input.aal === 'aal2' ? this.settings.ttlMs : Math.min(this.settings.enrollmentTtlMs ?? 15 * 60_000, this.settings.ttlMs);
    const createdAt = this.now();
    const session: DashboardSession = {
      userId: input.userId,
      aal: input.aal,
      method: input.method,
      passkeyId: input.passkeyId ?? null,
      generation: input.generation ?? 0,
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

  /**
   * A session carried on in a new generation (after the user's sessions were ended by something the
   * user did in it, such as deleting another passkey): same user, assurance, CSRF token and end,
   * a new token. The old token is gone.
   */
  async reissue(secret: string, session: DashboardSession, generation: number): Promise<{ token: string; session: DashboardSession }> {
    const next = { ...session, generation };
    const fresh = token();
    const lifetime = Math.max(1, session.expiresAt - this.now());
    await this.settings.kv.set(key(fresh), JSON.stringify(next), { ttlMs: lifetime });
    await this.settings.kv.delete(key(secret));
    return { token: fresh, session: next };
  }

  /** Ends the session on every instance; false when there was none. */
  async revoke(secret: string): Promise<boolean> {
    return this.settings.kv.delete(key(secret));
  }
}

/**
 * Whether a session still stands for its user: the user is not disabled and has not had their
 * sessions ended since it began (deleting a passkey, disabling, an administrator's "end sessions").
 * The user is read from the shared database on every request, so this holds on every instance.
 */
export function sessionHolds(session: Pick<DashboardSession, 'generation'>, user: Pick<DashboardUserRecord, 'disabledAt' | 'sessionGeneration'>): boolean {
  return user.disabledAt === null && (session.generation ?? 0) === user.sessionGeneration;
}

/** Constant-time check of a presented CSRF token against the session's. */
export function csrfTokenMatches(session: Pick<DashboardSession, 'csrfToken'>, presented: string | null | undefined): boolean {
  if (!presented) return false;
  return timingSafeEqual(digest(session.csrfToken), digest(presented));
}

const key = (secret: string) => `dash:session:${createHash('sha256').update(secret).digest('hex')}`;
