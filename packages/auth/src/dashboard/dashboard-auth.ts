import { DashboardAccounts } from './accounts.js';
import { ChallengeStore } from './challenge-store.js';
import type { DashboardKv, DashboardStore } from './dashboard-store.js';
import { PasskeyAuth } from './passkey-auth.js';
import type { RelyingParty } from './relying-party.js';
import { SessionStore } from './session-store.js';

export interface DashboardAuthSettings {
  rp: RelyingParty;
  store: DashboardStore;
  /** Shared by every instance: sessions and challenges. */
  kv: DashboardKv;
  /** Lifetime of a passkey (AAL2) session, ms. */
  sessionTtlMs: number;
  /** How long an enrollment link works, ms. */
  enrollmentTtlMs: number;
  /** How long a WebAuthn challenge may be answered, ms. Default 5 min. */
  challengeTtlMs?: number;
  now?: () => number;
}

/** Dashboard sign-in: the relying party, sessions, the passkey ceremonies and accounts with enrollment links. */
export interface DashboardAuth {
  rp: RelyingParty;
  sessions: SessionStore;
  passkeys: PasskeyAuth;
  accounts: DashboardAccounts;
}

export function createDashboardAuth(settings: DashboardAuthSettings): DashboardAuth {
  const now = settings.now ?? Date.now;
  const challenges = new ChallengeStore({ kv: settings.kv, ttlMs: settings.challengeTtlMs ?? 5 * 60_000 });
  return {
    rp: settings.rp,
    sessions: new SessionStore({ kv: settings.kv, ttlMs: settings.sessionTtlMs, now }),
    passkeys: new PasskeyAuth({ rp: settings.rp, store: settings.store, challenges }),
    accounts: new DashboardAccounts({ store: settings.store, origin: settings.rp.origin, enrollmentTtlMs: settings.enrollmentTtlMs, now }),
  };
}
