export { type Cost, baselinePrices, cacheHitCost, computeCost, sumCosts } from './cost/cost.js';
export { MissingPriceError, audioCost, imageCost, perMinuteCost, speechCost } from './cost/unit-cost.js';
export { type RealtimeCost, realtimeCost, realtimeMinutes, realtimeTokenCost, realtimeTokens } from './cost/realtime-cost.js';
export { tokenCostUsd } from './cost/token-cost.js';
export { charsPerToken, estimateTokens, tokensForChars } from './cost/token-estimate.js';
export type { CalendarMonth } from './limits/calendar-month.js';
export { type HeldShare } from './limits/held-share.js';
export { type LimiterSettings, Limiter, type SpendSubject } from './limits/limiter.js';
export {
  type ActualUsage,
  type AdmitRequest,
  type KeyMonthSpend,
  type LedgerMonth,
  type Limits,
  type MonthSpend,
  BACKGROUND_RESERVE,
  DEFAULT_COMPLETION_ESTIMATE,
  callerLimits,
  completionEstimate,
  monthLimits,
  organizationLimits,
  requestRateLimits,
} from './limits/limits.js';
export { formatDuration } from './limits/rate-limit-response.js';
export { type LimitRefusal, type RefusalKind, refusalKind } from './limits/refusal.js';
export { type Reservation, type ReservationState, unlimitedReservation } from './limits/reservation.js';
export { isReservationState } from './limits/stored-reservation.js';
