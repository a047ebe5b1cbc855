import { type Context, type Span, SpanKind, SpanStatusCode, type TextMapGetter, type TextMapSetter, ROOT_CONTEXT, type Tracer, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TraceSpan, Tracing, TracingSettings } from './tracing-types.js';

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

/** `createTracing` when traces are exported to `url`: this file, with OpenTelemetry's API and core, is loaded only then. */
export async function createOtelTracing(settings: TracingSettings, url: string): Promise<Tracing> {
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const exporter = new OTLPTraceExporter({ url, ...(settings.headers ? { headers: settings.headers } : {}) });
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
