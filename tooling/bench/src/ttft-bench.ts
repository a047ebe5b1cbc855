import { Client } from 'undici';
import { cacheQuestion } from './cache-questions.js';
import { upstreamCounts } from './measure.js';
import type { IntelligenceMode, Target, TargetName } from './target.js';
import { FirstContent, type TtftSummary, ttftSummary } from './ttft.js';
import { verifyTarget } from './verify.js';

/** Requests sent first and not counted (connection set-up, JIT). */
export const TTFT_WARMUP = 10;

/** One target's time to first token, one streamed request at a time. */
export interface TtftRow {
  /** What was measured, in words (`direct`, `svc, proxy mode`, `svc, full mode, unique prompts`...). */
  label: string;
  target: TargetName;
  /** svc's intelligence mode, when svc. */
  mode?: IntelligenceMode;
  summary: TtftSummary;
  /** Requests that did not answer 200 with content. */
  failed: number;
  /** Mock requests per measured request (1: every one went upstream, none answered from a cache). */
  upstreamCallsPerRequest: number | undefined;
}

/** The time-to-first-token part; also part of the JSON results file. */
export interface TtftReport {
  /** Measured requests per row (after {@link TTFT_WARMUP} more). */
  requests: number;
  /** The mock's delay before its first byte during these requests, ms. */
  upstreamLatencyMs: number;
  rows: TtftRow[];
  skipped: string[];
}

/** A streamed chat body asking `question` (with the usage chunk, as the load runs ask). */
export function streamBody(model: string, question: string): string {
  return JSON.stringify({ model, messages: [{ role: 'user', content: question }], stream: true, stream_options: { include_usage: true } });
}

/** Milliseconds from sending one request to its first content token; undefined when it failed or carried none. */
async function firstTokenMs(client: Client, url: URL, target: Target): Promise<number | undefined> {
  const started = performance.now();
  const res = await client.request({ path: url.pathname, method: 'POST', headers: target.headers, body: target.body(true) });
  if (res.statusCode !== 200) {
    await res.body.dump();
    return undefined;
  }
  const scanner = new FirstContent();
  let at: number | undefined;
  res.body.setEncoding('utf8');
  for await (const chunk of res.body) {
    if (at === undefined && scanner.push(chunk as string)) at = performance.now() - started;
  }
  return at;
}

/** `requests` streamed requests one after another on one keep-alive connection (after the warm-up), timed to their first content token. */
async function timeTarget(target: Target, requests: number, mockUrl: string): Promise<{ samples: number[]; failed: number; upstream: number }> {
  const url = new URL(target.url);
  const client = new Client(url.origin);
  const samples: number[] = [];
  let failed = 0;
  try {
    for (let i = 0; i < TTFT_WARMUP; i++) await firstTokenMs(client, url, target);
    const before = await upstreamCounts(mockUrl);
    for (let i = 0; i < requests; i++) {
      const ms = await firstTokenMs(client, url, target).catch(() => undefined);
      if (ms === undefined) failed++;
      else samples.push(ms);
    }
    const after = await upstreamCounts(mockUrl);
    return { samples, failed, upstream: after.total - before.total };
  } finally {
    await client.close();
  }
}

/** The rows of one loaded target: itself, and for svc also cache and full mode with unique prompts (so they miss). */
function variantsOf(target: Target, model: string): { label: string; mode?: IntelligenceMode; target: Target }[] {
  // Portkey cannot stream on Node as shipped: the process measured here is the one with the fetch shim.
  if (target.name === 'portkey') return [{ label: 'portkey (stream shim)', target }];
  if (target.name !== 'svc' && target.name !== 'svc-otel') return [{ label: target.name, target }];
  const rows: { label: string; mode?: IntelligenceMode; target: Target }[] = [{ label: `${target.name}, proxy mode`, mode: 'proxy', target }];
  if (target.name !== 'svc') return rows;
  let next = 0;
  for (const [mode, offset] of [['cache', 200_000], ['full', 300_000]] as const) {
    const unique: Target = { ...target, headers: { ...target.headers, 'x-intelligence-mode': mode }, body: () => streamBody(model, cacheQuestion(offset + next++)) };
    rows.push({ label: `svc, ${mode} mode, unique prompts (misses)`, mode, target: unique });
  }
  return rows;
}

async function configureMock(mockUrl: string, latencyMs: number): Promise<void> {
  const res = await fetch(`${mockUrl}/__mock/configure`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs }) });
  await res.arrayBuffer();
}

/** Settings of {@link runTtft}. */
export interface TtftSettings {
  targets: readonly Target[];
  /** The model svc requests pin. */
  svcModel: string;
  requests: number;
  upstreamLatencyMs: number;
  mockUrl: string;
  log: (line: string) => void;
}

/**
 * Time to first token as a chat user feels it: one streamed request at a time per target, the
 * mock delaying its first byte by `upstreamLatencyMs` (restored to 0 after). Each variant is first
 * checked with one request (a real stream, in the mode asked).
 */
export async function runTtft(settings: TtftSettings): Promise<TtftReport> {
  const report: TtftReport = { requests: settings.requests, upstreamLatencyMs: settings.upstreamLatencyMs, rows: [], skipped: [] };
  await configureMock(settings.mockUrl, settings.upstreamLatencyMs);
  try {
    for (const loaded of settings.targets) {
      for (const variant of variantsOf(loaded, settings.svcModel)) {
        const problem = await verifyTarget(variant.target, true);
        if (problem) {
          report.skipped.push(`${variant.label}: ${problem}`);
          continue;
        }
        const { samples, failed, upstream } = await timeTarget(variant.target, settings.requests, settings.mockUrl);
        const summary = ttftSummary(samples);
        settings.log(`  ttft ${variant.label}: p50 ${summary.p50.toFixed(2)} ms, p90 ${summary.p90.toFixed(2)} ms over ${summary.count}, failed ${failed}, upstream calls ${upstream}`);
        report.rows.push({
          label: variant.label,
          target: loaded.name,
          ...(variant.mode ? { mode: variant.mode } : {}),
          summary,
          failed,
          upstreamCallsPerRequest: settings.requests > 0 ? upstream / settings.requests : undefined,
        });
      }
    }
  } finally {
    await configureMock(settings.mockUrl, 0);
  }
  return report;
}
