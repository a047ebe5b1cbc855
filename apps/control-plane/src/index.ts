export { createControlPlaneApp } from './app.js';
export type { CacheStatsWire } from './cache-stats-wire.js';
export type { ControlPlaneDeps, DiversityThresholds, ReportSettings } from './deps.js';
export { matrixKeys } from './routes/admin-routing-matrix-store.js';
export { maxClassifyChars } from './routes/classify-complexity.js';
export { maxSlosPerOrg } from './routes/slo.js';
