import type { ReportSettings } from '@svc/control-plane';
import type { Env } from './env.js';

export function reportSettings(env: Env): ReportSettings {
  return {
    drift: {
      jsThresholdBits: env.SVC_DRIFT_JS_THRESHOLD,
      minDecisions: env.SVC_DRIFT_MIN_DECISIONS,
      successRateDrop: env.SVC_DRIFT_SUCCESS_DROP,
      latencyIncrease: env.SVC_DRIFT_LATENCY_INCREASE,
      topMovers: 5,
    },
    gate: {
      baselineDays: env.SVC_GATE_BASELINE_DAYS,
      minDecisions: env.SVC_GATE_MIN_DECISIONS,
      maxSuccessRateDrop: env.SVC_GATE_MAX_SUCCESS_DROP,
      maxFallbackRateIncrease: env.SVC_GATE_MAX_FALLBACK_INCREASE,
      maxLatencyIncrease: env.SVC_GATE_MAX_LATENCY_INCREASE,
      maxJudgedQualityDrop: env.SVC_GATE_MAX_JUDGED_DROP,
      minJudgedPairs: env.SVC_GATE_MIN_JUDGED_PAIRS,
    },
    matrix: { minDecisions: env.SVC_MATRIX_MIN_DECISIONS, minSuccessRate: env.SVC_MATRIX_MIN_SUCCESS_RATE, windowHours: 24 },
  };
}
