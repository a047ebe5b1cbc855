import type { Attributes } from '@opentelemetry/api';

/** A span's attributes (OpenTelemetry's `Attributes`): what the pipeline's stages describe themselves with. */
export type SpanAttributes = Attributes;

/** Settings of {@link createTracing}; the apps build them from the standard `OTEL_*` variables. */
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

const noopSpan: TraceSpan = {
  set: () => {},
  rename: () => {},
  end: () => {},
  headers: () => ({}),
  child: () => noopSpan,
};

/**
 * OpenTelemetry traces exported with OTLP over HTTP (JSON) in batches, or nothing at all when
 * `url` is absent (every span a shared no-op: no allocation on the request path, and the SDK's
 * exporter, resources and span processor are never loaded: ~5.5 MB of a process that does not
 * trace; nor are OpenTelemetry's API and core, `otel-tracing.ts`). Nothing global is registered: spans are started from the request's own context, so an
 * embedder's own OpenTelemetry setup is left alone.
 */
export async function createTracing(settings: TracingSettings): Promise<Tracing> {
  if (!settings.url) {
    return { enabled: false, request: () => noopSpan, flush: async () => {}, shutdown: async () => {} };
  }
  const { createOtelTracing } = await import('./otel-tracing.js');
  return createOtelTracing(settings, settings.url);
}
