export { type InferenceAppOptions, createInferenceApp } from './app.js';
export type { InferenceDeps } from './deps.js';
export type { AppEnv } from './env.js';
export { errorResponse, notFoundHandler, onError } from './errors.js';
export { readBodyText, readJson } from './read-body.js';
export { RouteRegistry, type RouteHandlers, type RouteRegistryOptions } from './route-registry.js';
export { registerOpenApi } from './routes/openapi.js';
export { registerProbes } from './routes/probes.js';
export { recordRequest } from './record-request.js';
