export type { CalendarMonth } from './calendar-month.js';
export { type LimiterSettings, Limiter, type SpendSubject } from './limiter.js';
export {
  type ActualUsage,
  type AdmitRequest,
  type KeyMonthSpend,
  type LedgerMonth,
  type Limits,
  type MonthSpend,
  callerLimits,
  organizationLimits,
} from './limits.js';
export { formatDuration } from './rate-limit-response.js';
export { type LimitRefusal, type RefusalKind, refusalKind } from './refusal.js';
export { type Reservation, unlimitedReservation } from './reservation.js';
