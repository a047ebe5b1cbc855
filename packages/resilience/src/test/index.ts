export { type BreakerConformanceOptions, runBreakerConformance } from './run-breaker-conformance.js';
