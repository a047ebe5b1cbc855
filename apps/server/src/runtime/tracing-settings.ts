import type { TracingSettings } from '@svc/telemetry';
import { ConfigError, type Env } from './env.js';

/** `k1=v1,k2=v2` with percent-encoded values (the OTEL_*_HEADERS and OTEL_RESOURCE_ATTRIBUTES format). */
function keyValues(variable: string, text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(variable, `'${pair.trim()}' is not key=value; use k1=v1,k2=v2`);
    try {
      out[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(variable, `'${pair.trim()}' is not percent-encoded correctly`);
    }
  }
  return out;
}

/**
 * Tracing from the standard OpenTelemetry variables: OTLP over HTTP (JSON) to
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`;
 * off when neither is set, with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function tracingSettings(env: Env): TracingSettings {
  const off = env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none';
  const url = off ? undefined : (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : undefined));
  const headers = {
    ...keyValues('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS),
    ...keyValues('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
  };
  const resourceAttributes = keyValues('OTEL_RESOURCE_ATTRIBUTES', env.OTEL_RESOURCE_ATTRIBUTES);
  return {
    serviceName: env.OTEL_SERVICE_NAME,
    ...(url ? { url } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(resourceAttributes ? { resourceAttributes } : {}),
  };
}
