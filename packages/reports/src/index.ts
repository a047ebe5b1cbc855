export { jensenShannonBits } from './divergence.js';
export {
  type DimensionDrift,
  type DriftDelta,
  type DriftDimension,
  type DriftEntry,
  type DriftFlag,
  type DriftMover,
  type DriftReason,
  type DriftSettings,
  type MixRow,
  driftDimensions,
  driftFeed,
} from './drift.js';
export {
  type GateCheck,
  type GateCheckName,
  type GateEvaluation,
  type GateFigures,
  type GateRouteChange,
  type GateSettings,
  type GateWindow,
  type OutcomeStats,
  evaluateGate,
  gateWindows,
  withJudgedQuality,
} from './gate.js';
export {
  type BreakerView,
  type CapabilityMatrix,
  type MatrixModel,
  type MatrixSettings,
  type ModelStatus,
  type StatusReason,
  capabilityColumns,
  capabilityMatrix,
} from './matrix.js';
export {
  type ConstraintCompliance,
  type ConstraintGroup,
  type ConstraintName,
  type PolicyCompliance,
  type Verdict,
  constraintNames,
  judge,
  policyCompliance,
} from './policy.js';
export { type RouteOfTask, routeChanges } from './judged.js';
// The judged-quality rule lives with the router, which applies it to the learner's route changes.
export { type Interval, type JudgedCounts, type JudgedGateSettings, type JudgedWinRate, type PairCounts, type RouteChange, judgeRouteChange, judgedWinRate, wilsonInterval } from '@svc/router';
