import { type Attributes, type Context, type Span, SpanKind, SpanStatusCode, type TextMapGetter, type TextMapSetter, ROOT_CONTEXT, type Tracer, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

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

const propagator = new W3CTraceContextPropagator();
const getter: TextMapGetter<(name: string) => string | undefined> = {
  get: (read, key) => read(key),
  keys: () => ['traceparent', 'tracestate'],
};
const setter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** `error.type`: a gateway or provider error's stable code, else the error's class name. */
function errorType(error: Error): string {
  return 'code' in error && typeof error.code === 'string' ? error.code : error.name;
}

function wrap(tracer: Tracer, span: Span, context: Context): TraceSpan {
  let ended = false;
  return {
    set: (attributes) => {
      span.setAttributes(attributes);
    },
    rename: (name) => {
      span.updateName(name);
    },
    end: (error) => {
      if (ended) return;
      ended = true;
      if (error !== undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        if (error instanceof Error) span.setAttribute('error.type', errorType(error));
      }
      span.end();
    },
    headers: () => {
      const carrier: Record<string, string> = {};
      propagator.inject(context, carrier, setter);
      return carrier;
    },
    child: (name, kind, attributes) => {
      const child = tracer.startSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, ...(attributes ? { attributes } : {}) }, context);
      return wrap(tracer, child, trace.setSpan(context, child));
    },
  };
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
 * trace). Nothing global is registered: spans are started from the request's own context, so an
 * embedder's own OpenTelemetry setup is left alone.
 */
export async function createTracing(settings: TracingSettings): Promise<Tracing> {
  if (!settings.url) {
    return { enabled: false, request: () => noopSpan, flush: async () => {}, shutdown: async () => {} };
  }
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const exporter = new OTLPTraceExporter({ url: settings.url, ...(settings.headers ? { headers: settings.headers } : {}) });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: settings.exportDelayMs ?? 1000 })],
  });
  const tracer = provider.getTracer('svc-gateway');
  return {
    enabled: true,
    request(name, header, attributes) {
      const parent = propagator.extract(ROOT_CONTEXT, header, getter);
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, ...(attributes ? { attributes } : {}) }, parent);
      return wrap(tracer, span, trace.setSpan(parent, span));
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
