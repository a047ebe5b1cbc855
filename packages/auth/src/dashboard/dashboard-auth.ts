import { type FailureLimit, FailureThrottle } from '../failure-throttle.js';
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
  /** Challenges issued per challenge lifetime, fleet-wide (the bound of the challenge store). Default 10,000. */
  maxChallenges?: number;
  /** Per source address and per subject. Default {@link defaultSignInLimits}. */
  limits?: SignInLimits;
  /** The kv failed while counting a failure (it is then not counted). */
  onThrottleError?: (error: unknown) => void;
  now?: () => number;
}

/** Sign-in attempts allowed per source address and per subject (e-mail, credential id) before 429. */
export interface SignInLimits {
  /** `login/begin` calls (each stores a challenge), per address and per e-mail. */
  begin: { perSource: FailureLimit; perSubject: FailureLimit };
  /** Failed `login/complete` assertions, per address and per credential id. */
  complete: { perSource: FailureLimit; perSubject: FailureLimit };
  /** Unknown, expired or used enrollment tokens, per address. */
  enrollment: { perSource: FailureLimit; perSubject: FailureLimit };
}

export const defaultSignInLimits: SignInLimits = {
  begin: { perSource: { failures: 20, perMs: 60_000 }, perSubject: { failures: 20, perMs: 60_000 } },
  complete: { perSource: { failures: 10, perMs: 60_000 }, perSubject: { failures: 10, perMs: 60_000 } },
  enrollment: { perSource: { failures: 10, perMs: 60_000 }, perSubject: { failures: 10, perMs: 60_000 } },
};

/** Dashboard sign-in: the relying party, sessions, the passkey ceremonies and accounts with enrollment links. */
export interface DashboardAuth {
  rp: RelyingParty;
  sessions: SessionStore;
  passkeys: PasskeyAuth;
  accounts: DashboardAccounts;
}

export function createDashboardAuth(settings: DashboardAuthSettings): DashboardAuth {
  const now = settings.now ?? Date.now;
  const ttlMs = settings.challengeTtlMs ?? 5 * 60_000;
  const challenges = new ChallengeStore({ kv: settings.kv, ttlMs, ...(settings.maxChallenges === undefined ? {} : { maxPerWindow: settings.maxChallenges }) });
  const limits = settings.limits ?? defaultSignInLimits;
  const throttle = (name: keyof SignInLimits) =>
    new FailureThrottle({ kv: settings.kv, name: `dash_${name}`, ...limits[name], now, ...(settings.onThrottleError ? { onError: settings.onThrottleError } : {}) });
  return {
    rp: settings.rp,
    sessions: new SessionStore({ kv: settings.kv, ttlMs: settings.sessionTtlMs, now }),
    passkeys: new PasskeyAuth({ rp: settings.rp, store: settings.store, challenges, throttles: { begin: throttle('begin'), complete: throttle('complete') } }),
    accounts: new DashboardAccounts({ store: settings.store, origin: settings.rp.origin, enrollmentTtlMs: settings.enrollmentTtlMs, now, throttle: throttle('enrollment') }),
  };
}
