import type { AccessRecord } from '@svc/pipeline';
import { type Logger, type SpanAttributes, type TraceSpan, type Tracing, flatInfoWriter } from '@svc/telemetry';
import type { Context, MiddlewareHandler } from 'hono';
import { endRequestSpan, onResponseClosed, responseHeader, startRequestSpan } from '@svc/http-kit';
import type { AppEnv } from './env.js';

/** Probes and scrapes: called every few seconds by machines, they would drown the log. */
const quiet = new Set(['/health', '/ready', '/metrics']);

/** The line's fields, in the order written. */
const lineKeys = ['request_id', 'org', 'key_prefix', 'method', 'route', 'status', 'latency_ms', 'model', 'provider', 'mode', 'cache', 'prompt_tokens', 'completion_tokens', 'cost_usd', 'end_user'];

/** A numeric header's value; undefined when absent or not a number (`x-svc-cost-usd: unpriced`). */
const numberHeader = (value: string | null): number | undefined => {
  const number = value === null || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(number) ? number : undefined;
};

/**
 * One structured line per request at `info` (`msg: "request"`), written when the answer is
 * complete (a stream: when its last byte is written or the client left): request id, org, key
 * prefix, method, route pattern, status, latency, and for answers the model, provider, mode,
 * cache layer, tokens, cost and the end user as a hash. Never a key, a prompt or an answer:
 * only the caller's key prefix and what the pipeline put in the request's AccessRecord.
 */
export function accessLog(logger: Logger, tracing: Tracing): MiddlewareHandler<AppEnv> {
  // The line is built from the named fields below, none of which can hold a secret, so it skips
  // the logger's redaction: matching its wildcard paths cost ~65 µs a line, a tenth of a proxied
  // request's CPU.
  const lines = logger.child({}, { redact: [] });
  const writeLine = flatInfoWriter(lines, lineKeys);
  return async (c, next) => {
    const started = performance.now();
    const access: AccessRecord = {};
    c.set('access', access);
    const quietPath = quiet.has(c.req.path);
    // One trace per request, a child of the caller's traceparent; probes are not traced. Tracing
    // off: no span at all, so the pipeline's stages and upstream attempts skip theirs too.
    const span = quietPath || !tracing.enabled ? undefined : startRequestSpan(tracing, c);
    if (span) c.set('trace', span);
    await next();
    if (quietPath) return;
    const write = () => {
      const caller = c.get('caller');
      const header = (name: string) => responseHeader(c, name);
      if (span) endGenAiSpan(span, c, access);
      writeLine(
        {
          request_id: c.get('requestId') ?? header('x-svc-request-id') ?? undefined,
          org: caller?.org.id,
          key_prefix: caller?.keyPrefix,
          method: c.req.method,
          route: c.req.routePath,
          status: c.res.status,
          latency_ms: Math.round(performance.now() - started),
          model: access.model ?? header('x-svc-model') ?? undefined,
          provider: access.provider ?? header('x-svc-provider') ?? undefined,
          mode: access.mode ?? header('x-svc-intelligence-mode') ?? undefined,
          cache: access.cache ?? undefined,
          prompt_tokens: access.promptTokens ?? numberHeader(header('x-svc-input-tokens')),
          completion_tokens: access.completionTokens ?? numberHeader(header('x-svc-output-tokens')),
          cost_usd: access.costUsd ?? numberHeader(header('x-svc-cost-usd')),
          end_user: access.endUser,
        },
        'request',
      );
    };
    const type = responseHeader(c, 'content-type');
    const streamed = type !== null && (type.startsWith('text/event-stream') || type.startsWith('audio/'));
    if (!streamed) return write();
    // On Node, before touching `c.res.body`: that getter turns @hono/node-server's light response
    // into a full WHATWG one, which it then writes by its slower path.
    if (onResponseClosed(c, write)) return;
    if (!c.res.body) return write();
    // Not on Node (app.request(), other runtimes): the line follows the body's last chunk.
    c.res = new Response(c.res.body.pipeThrough(new TransformStream({ flush: write })), c.res);
  };
}

/** The request span's GenAI attributes (OpenTelemetry GenAI semantic conventions), then its HTTP ones (`endRequestSpan`). */
function endGenAiSpan(span: TraceSpan, c: Context<AppEnv>, access: AccessRecord): void {
  const attributes: SpanAttributes = {};
  if (access.model) {
    attributes['gen_ai.operation.name'] = 'chat';
    attributes['gen_ai.response.model'] = access.model;
  }
  if (access.requestedModel) attributes['gen_ai.request.model'] = access.requestedModel;
  if (access.provider) attributes['gen_ai.provider.name'] = access.provider;
  if (access.promptTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = access.promptTokens;
  if (access.completionTokens !== undefined) attributes['gen_ai.usage.output_tokens'] = access.completionTokens;
  if (access.costUsd !== undefined) attributes['svc.cost_usd'] = access.costUsd;
  if (access.mode) attributes['svc.intelligence_mode'] = access.mode;
  if (access.cache !== undefined) attributes['svc.cache'] = access.cache === false ? 'miss' : access.cache;
  endRequestSpan(span, c, attributes);
}
