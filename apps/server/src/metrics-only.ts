import type { Runtime } from './runtime/runtime.js';
import type { FetchApp } from './serve.js';

/**
 * The METRICS_PORT listener: `GET /metrics` (the same registry as the apps' `/metrics`) and
 * nothing else, without a token. It is for a scraper on a network the operator controls (the
 * pod network, with Prometheus' pod annotations); the app ports keep their own rule.
 */
export function metricsOnly(metrics: Pick<Runtime['metrics'], 'metrics' | 'contentType'>): FetchApp {
  return {
    async fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname !== '/metrics') return new Response('Not found: this port serves GET /metrics only.\n', { status: 404 });
      if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
      return new Response(await metrics.metrics(), { headers: { 'content-type': metrics.contentType } });
    },
  };
}
