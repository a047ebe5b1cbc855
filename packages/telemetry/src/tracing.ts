import type { TraceSpan, Tracing, TracingSettings } from './tracing-types.js';

export type { SpanAttributes, TraceSpan, Tracing, TracingSettings } from './tracing-types.js';

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
