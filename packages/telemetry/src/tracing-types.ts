/**
 * The tracing interface, apart from both its implementations (the no-op one in tracing.ts, the
 * OpenTelemetry one in otel-tracing.ts, which tracing.ts loads only when traces are exported), so
 * that neither imports the other.
 */
import type { Attributes } from '@opentelemetry/api';

/** A span's attributes (OpenTelemetry's `Attributes`): what the pipeline's stages describe themselves with. */
export type SpanAttributes = Attributes;

/** Settings of `createTracing` (tracing.ts); the apps build them from the standard `OTEL_*` variables. */
export interface TracingSettings {
  /** OTLP/HTTP (JSON) traces URL, e.g. `http://collector:4318/v1/traces`. Absent: tracing is off. */
  url?: string;
  /** Headers sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`). */
  headers?: Record<string, string>;
  /** `service.name` of the resource. */
  serviceName: string;
  /** More resource attributes (`OTEL_RESOURCE_ATTRIBUTES`). */
  resourceAttributes?: Record<string, string>;
  /** Longest wait between exports, ms. Default 1000. */
  exportDelayMs?: number;
}

/** One span: attributes as they become known, then one end (with the error, if any). */
export interface TraceSpan {
  set(attributes: Attributes): void;
  /** Renames the span (a request's route is known only after routing). */
  rename(name: string): void;
  end(error?: unknown): void;
  /** `traceparent` (and `tracestate`) that make an outgoing call this span's child. */
  headers(): Record<string, string>;
  /** Starts a child span of this one. */
  child(name: string, kind: 'internal' | 'client', attributes?: Attributes): TraceSpan;
}

/** Traces of the gateway: one per request, its spans started from the request's root. */
export interface Tracing {
  readonly enabled: boolean;
  /** A request's root (SERVER) span, a child of the caller's `traceparent` when it sent a valid one. */
  request(name: string, header: (name: string) => string | undefined, attributes?: Attributes): TraceSpan;
  /** Exports what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes, then stops exporting. */
  shutdown(): Promise<void>;
}
