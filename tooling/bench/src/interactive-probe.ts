import { type LatencySummary, summarise } from './percentiles.js';

/** What the probe sends: interactive chat requests at a fixed rate, each a unique prompt. */
export interface ProbeOptions {
  url: string;
  key: string;
  model: string;
  /** Requests per second, sent on a fixed schedule (an open loop: a slow answer does not delay the next request). */
  rps: number;
  /** `x-intelligence-mode` of the probe's requests. */
  mode: string;
}

export interface ProbeResult {
  latency: LatencySummary;
  failed: number;
}

/** One probe request's latency in ms, or undefined when it failed. */
async function probeOnce(options: ProbeOptions, n: number): Promise<number | undefined> {
  const started = performance.now();
  const response = await fetch(`${options.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json', 'x-intelligence-mode': options.mode },
    body: JSON.stringify({ model: options.model, max_tokens: 16, messages: [{ role: 'user', content: `interactive probe ${process.pid}-${n}-${Date.now()}` }] }),
  }).catch(() => undefined);
  if (!response) return undefined;
  await response.arrayBuffer();
  return response.ok ? performance.now() - started : undefined;
}

/**
 * Sends the probe's requests until `until` settles, then waits for those in flight and summarises
 * their latencies. Requests are started on schedule whatever the gateway's speed, so a stalled
 * event loop shows in the tail instead of lowering the rate (no coordinated omission).
 */
export async function runProbe(options: ProbeOptions, until: Promise<unknown>): Promise<ProbeResult> {
  let stopped = false;
  void until.finally(() => {
    stopped = true;
  });
  const pending: Promise<number | undefined>[] = [];
  const interval = 1000 / options.rps;
  const start = performance.now();
  for (let n = 0; !stopped; n++) {
    pending.push(probeOnce(options, n));
    const wait = start + (n + 1) * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const latencies = await Promise.all(pending);
  const answered = latencies.filter((ms): ms is number => ms !== undefined);
  return { latency: summarise(answered), failed: latencies.length - answered.length };
}

/** One report row: the probe's figures alone and beside the batch, and the p99 ratio the goal reads. */
export function probeRows(alone: ProbeResult, beside: ProbeResult): string[][] {
  const cell = (result: ProbeResult) => `${result.latency.count} answered, ${result.failed} failed; p50 ${result.latency.p50.toFixed(1)} / p99 ${result.latency.p99.toFixed(1)} / max ${result.latency.max.toFixed(1)} ms`;
  return [
    ['interactive probe alone', cell(alone)],
    ['interactive probe beside the batch', cell(beside)],
    ['interactive p99 beside / alone (goal <= 2)', (beside.latency.p99 / alone.latency.p99).toFixed(2)],
  ];
}
