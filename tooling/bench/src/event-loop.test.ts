import { describe, expect, it } from 'vitest';
import { eventLoopDelay, parseEventLoop, promSample } from './event-loop.js';

// As svc serves it (prom-client 15 default metrics, prefix svc_), trimmed.
const scraped = `# HELP svc_nodejs_eventloop_lag_seconds Lag of event loop in seconds.
# TYPE svc_nodejs_eventloop_lag_seconds gauge
svc_nodejs_eventloop_lag_seconds 0
# HELP svc_nodejs_eventloop_lag_min_seconds The minimum recorded event loop delay.
# TYPE svc_nodejs_eventloop_lag_min_seconds gauge
svc_nodejs_eventloop_lag_min_seconds 0.009216
svc_nodejs_eventloop_lag_max_seconds 0.368574463
svc_nodejs_eventloop_lag_p50_seconds 0.010158079
svc_nodejs_eventloop_lag_p90_seconds 0.021151743
svc_nodejs_eventloop_lag_p99_seconds 0.060948479
svc_requests_total{route="chat",status="200"} 12
`;

describe('event-loop figures from /metrics', () => {
  it('reads prom-client\'s histogram figures with or without a prefix, in ms', () => {
    const reading = parseEventLoop(scraped);
    expect(reading?.minMs).toBeCloseTo(9.216, 6);
    expect(reading?.p99Ms).toBeCloseTo(60.948479, 6);
    expect(reading?.maxMs).toBeCloseTo(368.574463, 6);
    const plain = scraped.replaceAll('svc_nodejs', 'nodejs');
    expect(parseEventLoop(plain)).toEqual(parseEventLoop(scraped));
    expect(promSample(scraped, 'requests_total')).toBe(12);
  });

  it('does not mistake the p50 or the setImmediate gauge for the p99, and is undefined without the figures', () => {
    expect(promSample(scraped, 'nodejs_eventloop_lag_seconds')).toBe(0);
    expect(parseEventLoop('svc_up 1\n')).toBeUndefined();
    expect(parseEventLoop(scraped.replace(/^svc_nodejs_eventloop_lag_max_seconds.*$/m, ''))).toBeUndefined();
  });

  it('takes the 10 ms sampling interval off the readings, never below zero', () => {
    const delay = eventLoopDelay({ minMs: 9.2, p99Ms: 14.5, maxMs: 38.6 });
    expect(delay.resolutionMs).toBe(10);
    expect(delay.p99Ms).toBeCloseTo(4.5);
    expect(delay.maxMs).toBeCloseTo(28.6);
    expect(eventLoopDelay({ minMs: 9.8, p99Ms: 9.9, maxMs: 9.95 }).maxMs).toBe(0);
  });

  it('uses the minimum reading as the interval when a build samples more often than prom-client\'s default', () => {
    const delay = eventLoopDelay({ minMs: 1.02, p99Ms: 1.5, maxMs: 6.02 });
    expect(delay.resolutionMs).toBe(1.02);
    expect(delay.maxMs).toBeCloseTo(5);
  });
});
