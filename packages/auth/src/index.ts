export * from './api-key.js';
export * from './scopes.js';
export * from './store.js';
export { Authenticator, type AuthenticatorSettings, type IssuedKey, defaultKeyFailureLimits, isCurrentMasterKey } from './authenticator.js';
export { type Attempt, type FailureLimit, FailureThrottle, type FailureThrottleSettings, tooManyFailures } from './failure-throttle.js';
export { MasterKeyError, type MasterKeyOutcome, type SupersededKey, generateMasterKey } from './master-key.js';
export { estimatedEntropyBits, masterKeyMinBits, masterKeyMinLength, masterKeyWeakness } from './master-key-strength.js';
export * from './dashboard/index.js';
