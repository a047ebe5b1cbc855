import autocannon from 'autocannon';
import { type LatencySummary, SampleBuffer, summarise } from './percentiles.js';

/** One autocannon run against one URL. */
export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Called for every request's body instead of sending `body` each time (unique bodies). */
  nextBody?: () => string;
  connections: number;
  durationSec: number;
  /** Requests per second across all connections; unlimited when absent. */
  overallRate?: number;
}

/** What one run measured; latencies are of 2xx responses only, in ms with sub-ms precision. */
export interface LoadResult {
  elapsedSec: number;
  responses: number;
  ok: number;
  non2xx: number;
  /** Connection errors, including timeouts. */
  errors: number;
  timeouts: number;
  /** 2xx responses per second. */
  rps: number;
  latency: LatencySummary;
}

function bodyFrom(next: () => string): (request: autocannon.Request) => autocannon.Request {
  return (request) => ({ ...request, body: next() });
}

/**
 * Run autocannon (closed loop: each connection sends its next request when the last finishes).
 * Latencies come from its `response` event (hrtime, sub-ms) rather than its histogram, which
 * buckets by whole milliseconds and would hide a sub-millisecond gateway overhead.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const samples = new SampleBuffer();
  let responses = 0;
  let non2xx = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: 'POST',
        headers: spec.headers,
        body: spec.body,
        ...(spec.nextBody === undefined ? {} : { requests: [{ setupRequest: bodyFrom(spec.nextBody) }] }),
        connections: spec.connections,
        duration: spec.durationSec,
        ...(spec.overallRate === undefined ? {} : { overallRate: spec.overallRate }),
        timeout: 30,
      },
      (error: Error | null, done: autocannon.Result) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      responses++;
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
      else non2xx++;
    });
  });
  const elapsedSec = (performance.now() - started) / 1000;
  const latency = summarise(samples.values());
  return {
    elapsedSec,
    responses,
    ok: latency.count,
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    rps: latency.count / elapsedSec,
    latency,
  };
}
