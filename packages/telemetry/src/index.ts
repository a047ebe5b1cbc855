export { type DestinationStream, type Logger, type LoggerOptions, createLogger } from './logger.js';
export { type FlatFields, flatInfoWriter } from './flat-line.js';
export { BREAKER_STATE, type LearnStageFigures, type LiveSources, type ShadowFigures, type Metrics, type MetricsOptions, type ModelSeries, createMetrics } from './metrics.js';
export { BoundCounter, BoundHistogram, type CounterSeries, type HistogramSeries } from './series.js';
export { type SpanAttributes, type TraceSpan, type Tracing, type TracingSettings, createTracing } from './tracing.js';
