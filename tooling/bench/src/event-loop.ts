/**
 * The event loop's delay in a svc process, read from its Prometheus `/metrics`: prom-client's
 * default metrics (`collectDefaultMetrics`, in packages/telemetry, prefixed `svc_`) keep a
 * `monitorEventLoopDelay` histogram and reset it at every scrape, so a scrape right before a
 * measured run and one right after it give the run's own p99 and max.
 */

/** prom-client's `eventLoopMonitoringPrecision` default, the histogram's sampling interval, ms. */
export const EVENT_LOOP_RESOLUTION_MS = 10;

/** The histogram's figures as scraped, ms (each includes the sampling interval, see {@link eventLoopDelay}). */
export interface EventLoopReading {
  minMs: number;
  p99Ms: number;
  maxMs: number;
}

/** The event loop's delay over one run: how late its timer fired, ms. */
export interface EventLoopDelay {
  p99Ms: number;
  maxMs: number;
  /** The scraped figures it was computed from. */
  reading: EventLoopReading;
  /** The sampling interval subtracted, ms. */
  resolutionMs: number;
}

/** The value of one unlabelled sample `name` (with or without a `prefix`) in Prometheus text; undefined when absent. */
export function promSample(text: string, name: string): number | undefined {
  const pattern = new RegExp(`^(?:[a-z_]+_)?${name}(?:\\{[^}]*\\})?\\s+(\\S+)`, 'm');
  const match = pattern.exec(text);
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  return Number.isFinite(value) ? value : undefined;
}

/** prom-client's event-loop figures in a `/metrics` text, ms; undefined when they are not there. */
export function parseEventLoop(text: string): EventLoopReading | undefined {
  const min = promSample(text, 'nodejs_eventloop_lag_min_seconds');
  const p99 = promSample(text, 'nodejs_eventloop_lag_p99_seconds');
  const max = promSample(text, 'nodejs_eventloop_lag_max_seconds');
  if (min === undefined || p99 === undefined || max === undefined) return undefined;
  return { minMs: min * 1000, p99Ms: p99 * 1000, maxMs: max * 1000 };
}

/**
 * The delay from a reading. `monitorEventLoopDelay` records the time between two runs of a
 * repeating timer, so an idle loop reads the interval itself (about 10 ms at prom-client's default;
 * the minimum can read slightly less, 9.2 ms was seen) and a loop held for 30 ms reads up to 40:
 * the delay is the reading minus the interval. A minimum reading under half the default means a
 * build samples more often; that minimum is then taken as the interval.
 */
export function eventLoopDelay(reading: EventLoopReading): EventLoopDelay {
  const resolutionMs = reading.minMs < EVENT_LOOP_RESOLUTION_MS / 2 ? reading.minMs : EVENT_LOOP_RESOLUTION_MS;
  return {
    p99Ms: Math.max(0, reading.p99Ms - resolutionMs),
    maxMs: Math.max(0, reading.maxMs - resolutionMs),
    reading,
    resolutionMs,
  };
}

/** Scrape `url` (loopback: svc serves `/metrics` to local callers without a token); undefined when it does not answer. */
export async function scrapeEventLoop(url: string): Promise<EventLoopReading | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    return res.status === 200 ? parseEventLoop(text) : undefined;
  } catch {
    return undefined;
  }
}
