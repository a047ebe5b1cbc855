/**
 * How hard the fault suite pushes: `SVC_FAULTS_SCALE` (default 1, the bounded form every
 * `pnpm test` runs) multiplies its repetitions and concurrency; the long form is
 * `pnpm --filter @svc/server faults:long` (scale 20).
 */
export const FAULTS_SCALE = Math.max(1, Number.parseInt(process.env.SVC_FAULTS_SCALE ?? '1', 10) || 1);

/** `n` times the scale. */
export const scaled = (n: number) => n * FAULTS_SCALE;
