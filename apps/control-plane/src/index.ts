export { createControlPlaneApp } from './app.js';
export type { ControlPlaneDeps } from './deps.js';
