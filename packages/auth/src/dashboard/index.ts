export { DashboardAccounts, type EnrollmentLink, isEmail } from './accounts.js';
export { type ChallengeRecord, ChallengeStore } from './challenge-store.js';
export { createDashboardAuth, type DashboardAuth, type DashboardAuthSettings, type SignInLimits, defaultSignInLimits } from './dashboard-auth.js';
export type { DashboardKv, DashboardRole, DashboardStore, DashboardUserRecord, PasskeyRecord } from './dashboard-store.js';
export { assuranceTooLow, csrfRejected, passkeyRejected, sessionRequired } from './errors.js';
export { PasskeyAuth } from './passkey-auth.js';
export { type RelyingParty, relyingPartyFromOrigin } from './relying-party.js';
export { webauthn as preloadWebAuthn } from './webauthn.js';
export { type AssuranceLevel, type DashboardSession, SessionStore, csrfTokenMatches, sessionHolds } from './session-store.js';
