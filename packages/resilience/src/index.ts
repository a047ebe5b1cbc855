export {
  type Admission,
  type BreakerOutcome,
  type BreakerSettings,
  type BreakerState,
  type BreakerStatus,
  type BreakerTransition,
  CircuitBreakers,
  type TransitionReason,
} from './breaker.js';
export { allBreakersOpen } from './errors.js';
export { type HedgeOptions, type HedgeResult, HedgeStats, hedge } from './hedging.js';
export { type KeyCooldownSettings, KeyCooldowns, type KeyStatus, isKeyFailure } from './key-cooldown.js';
export { type LatencySnapshot, LatencyTracker, type LatencyTrackerSettings } from './latency-tracker.js';
export { type RetryPolicy, retryDelay, sameCandidateRetryKinds, sleep } from './retry.js';
