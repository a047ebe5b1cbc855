export { createInferenceApp } from './app.js';
export { type RealtimeGateway, type RealtimeGatewayDeps, createRealtimeGateway } from './realtime/realtime-gateway.js';
export type { InferenceDeps } from './deps.js';
export type { AppEnv } from './env.js';
export { errorResponse, notFoundHandler, onError } from './errors.js';
export { readBodyText, readJson } from './read-body.js';
export { registerProbes } from './routes/probes.js';
export { recordRequest } from './record-request.js';
