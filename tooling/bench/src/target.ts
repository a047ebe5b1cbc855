/**
 * The HTTP targets the bench can load: the mock itself (`direct`), the Node.js floor (a minimal
 * proxy, `floor-proxy.ts`), svc, svc with OpenTelemetry on (`svc-otel`, traces exported to an
 * in-process sink) and Portkey.
 */
export type TargetName = 'direct' | 'floor' | 'svc' | 'svc-otel' | 'portkey';

/** Every target, in report order. */
export const TARGET_NAMES: readonly TargetName[] = ['direct', 'floor', 'svc', 'svc-otel', 'portkey'];

/** A started, loadable HTTP target. */
export interface Target {
  name: TargetName;
  /** The chat completions URL to POST to (always 127.0.0.1). */
  url: string;
  headers: Record<string, string>;
  /** The request body; `stream` asks for SSE with a usage chunk. */
  body(stream: boolean): string;
  /**
   * Build every request's body with `body()` while loading (autocannon `setupRequest`) instead
   * of sending one prepared body: set when `body()` returns a new body at each call.
   */
  bodyPerRequest?: boolean;
  /** Process whose CPU time and RSS are charged to this target. */
  pid: number;
  /**
   * The gateway's Prometheus `/metrics` (svc only): scraped right before and right after each
   * measured run for the event loop's delay over the run (prom-client resets it at every scrape).
   */
  metricsUrl?: string;
}

/** svc's intelligence modes (spec §Intelligence modes); `full` is its default. */
export type IntelligenceMode = 'proxy' | 'cache' | 'full';

/**
 * The mode of the svc-vs-Portkey and fallback runs: `proxy` turns the answer cache off, so every
 * request goes upstream as it does through Portkey and the rows measure per-request proxy overhead.
 */
export const COMPARISON_MODE: IntelligenceMode = 'proxy';

/** A target that started, or the reason it could not. */
export type TargetStart = { ok: true; target: Target } | { ok: false; reason: string };

/** The chat request every target gets: one short user message. */
export function chatBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Say hello' }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}
