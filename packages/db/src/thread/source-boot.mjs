// The store thread's entry when the package runs from its TypeScript sources (its tests, and
// apps run with --conditions=@svc/source): tsx compiles them; built, dist/store-worker.js runs.
import { register } from 'tsx/esm/api';

register();
await import('./store-worker.ts');
