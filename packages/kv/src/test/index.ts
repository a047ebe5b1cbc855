export { type KvConformanceOptions, runKvConformance } from './run-kv-conformance.js';
