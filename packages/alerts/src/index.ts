export type { AlertEvent, AlertEvents } from './alert-events.js';
export { AlertEvaluator, type AlertEvaluatorSettings } from './alert-evaluator.js';
export { breakerAlertKey, refusalAlertKey, sloAlertKey } from './alert-rules.js';
export {
  type SloCompliance,
  type SloStatus,
  type ThresholdRange,
  describeSlo,
  judgeSlo,
  sloBounds,
  thresholdAllowed,
  thresholdRange,
} from './slo-rules.js';
