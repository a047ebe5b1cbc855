export { type InferenceAppOptions, createInferenceApp } from './app.js';
export { type RealtimeGateway, type RealtimeGatewayDeps, createRealtimeGateway } from './realtime/realtime-gateway.js';
export type { InferenceDeps } from './deps.js';
export type { AppEnv } from './env.js';
export { BatchWorker, type BatchWorkerDeps, type BatchWorkerSettings } from './batches/batch-worker.js';
