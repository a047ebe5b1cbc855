export { type DestinationStream, type Logger, type LoggerOptions, createLogger } from './logger.js';
export { BREAKER_STATE, type Metrics, type MetricsOptions, createMetrics } from './metrics.js';
