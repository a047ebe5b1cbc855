#!/usr/bin/env node
// node tooling/bench/dist/batch-bench.js --url <inference URL> --control-url <control-plane URL>
//   --key <master key> [--lines 10000] [--model <slug>] [--pid <gateway pid>]
//   [--probe-rps 20] [--probe-seconds 20] [--probe-mode proxy] [--kill-at <completed lines>]
// Submits one batch of --lines chat lines to a running gateway, waits for it to end and reports
// its wall time, lines per second, the gateway's resident memory (with --pid: VmRSS before and the
// most sampled while it ran, and VmHWM, the process's peak), and whether every line was answered
// exactly once in the output and billed exactly once in the ledger (the rows tagged with the
// batch's id, read through the admin ledger export). Exits 1 when a line was not.
// With --probe-rps > 0 (the default), an interactive probe (unique chat requests at a fixed rate,
// `x-intelligence-mode: --probe-mode`) runs --probe-seconds alone first, then from the batch's
// submission to its end: its p99 beside the batch against alone is the issue's "no worse than 2x".
// With --kill-at N and --pid, the gateway is killed (SIGKILL) once N lines completed; the bench
// then waits for a gateway to answer again on the same URL (whoever runs it restarts it:
// tooling/bench/scripts/batch-crash.sh) and checks the batch ends with every line once.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type BatchCheck, checkBatch, type LedgerLine, type OutputLine } from './batch-check.js';
import { type ProbeOptions, type ProbeResult, probeRows, runProbe } from './interactive-probe.js';
import { parseStatusKb } from './proc-stats.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'control-url': { type: 'string' },
    key: { type: 'string' },
    lines: { type: 'string', default: '10000' },
    model: { type: 'string', default: 'openai/gpt-4o-mini' },
    pid: { type: 'string' },
    'probe-rps': { type: 'string', default: '20' },
    'probe-seconds': { type: 'string', default: '20' },
    'probe-mode': { type: 'string', default: 'proxy' },
    'kill-at': { type: 'string' },
  },
});
const { url, key } = values;
const controlUrl = values['control-url'];
const lines = Number(values.lines);
const probeRps = Number(values['probe-rps']);
const probeSeconds = Number(values['probe-seconds']);
const killAt = values['kill-at'] === undefined ? undefined : Number(values['kill-at']);
if (!url || !controlUrl || !key || !Number.isInteger(lines) || lines < 1 || !(probeRps >= 0) || !(probeSeconds > 0) || (killAt !== undefined && !(Number.isInteger(killAt) && values.pid))) {
  console.error('usage: batch-bench.js --url <inference URL> --control-url <control-plane URL> --key <master key> [--lines 10000] [--model <slug>] [--pid <gateway pid>] [--probe-rps 20] [--probe-seconds 20] [--probe-mode proxy] [--kill-at <completed lines> (needs --pid)]');
  process.exit(2);
}
const auth = { authorization: `Bearer ${key}` };
let killed = false;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS and VmHWM of the gateway in MiB, or undefined without --pid. */
function memory(): { rssMb: number; peakMb: number } | undefined {
  if (!values.pid || killed) return undefined;
  const status = readFileSync(`/proc/${values.pid}/status`, 'utf8');
  return { rssMb: parseStatusKb(status, 'VmRSS') / 1024, peakMb: parseStatusKb(status, 'VmHWM') / 1024 };
}

async function call<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...init.headers } });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function text(base: string, path: string): Promise<string> {
  const response = await fetch(`${base}${path}`, { headers: auth });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.text();
}

const jsonLines = <T>(body: string): T[] =>
  body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

interface Batch {
  id: string;
  status: string;
  output_file_id: string | null;
  error_file_id: string | null;
  request_counts: { total: number; completed: number; failed: number };
}

async function submit(): Promise<Batch> {
  const input = Array.from({ length: lines }, (_, i) => JSON.stringify({ custom_id: `line-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: values.model, max_tokens: 16, messages: [{ role: 'user', content: `batch bench question ${i}` }] } }));
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set('file', new Blob([`${input.join('\n')}\n`]), 'bench.jsonl');
  const file = await call<{ id: string }>(url!, '/v1/files', { method: 'POST', body: form });
  return call<Batch>(url!, '/v1/batches', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { bench: 'batch' } }) });
}

const ENDED = ['completed', 'failed', 'cancelled', 'expired'];

/** Polls the batch until it ended, sampling the gateway's memory: the batch and the most RSS seen. */
async function waitEnded(id: string): Promise<{ batch: Batch; maxRssMb: number }> {
  let maxRssMb = 0;
  for (;;) {
    // After the kill, the gateway is away until it is restarted: poll again.
    const batch = await call<Batch>(url!, `/v1/batches/${id}`).catch((error: unknown) => {
      if (!killed) throw error;
      return undefined;
    });
    if (!batch) {
      await sleep(500);
      continue;
    }
    maxRssMb = Math.max(maxRssMb, memory()?.rssMb ?? 0);
    if (killAt !== undefined && !killed && batch.request_counts.completed >= killAt) {
      process.kill(Number(values.pid), 'SIGKILL');
      killed = true;
      console.log(`killed the gateway (pid ${values.pid}) at ${batch.request_counts.completed} completed lines`);
    }
    if (ENDED.includes(batch.status)) return { batch, maxRssMb };
    await sleep(250);
  }
}

/**
 * The ledger rows tagged with the batch. The ledger is written behind the answers: read until a
 * row per line arrived (then once more after 2 s, for late strays) or nothing new came for 10 s.
 */
async function ledgerOf(id: string): Promise<LedgerLine[]> {
  const read = async () => jsonLines<LedgerLine>(await text(controlUrl!, `/v1/admin/ledger/export?tag=${encodeURIComponent(`batch_id:${id}`)}`));
  let rows: LedgerLine[] = [];
  for (let changed = Date.now(); Date.now() - changed < 10_000; await sleep(500)) {
    const next = await read();
    if (next.length !== rows.length) changed = Date.now();
    rows = next;
    if (rows.length >= lines) {
      await sleep(2000);
      return read();
    }
  }
  return rows;
}

function report(batch: Batch, seconds: number, check: BatchCheck, mem: { before?: number; submitted?: number; max: number; peak?: number }, probe?: { alone: ProbeResult; beside: ProbeResult }): string {
  const rows = [
    ['lines', String(lines)],
    ['status', `${batch.status} (${batch.request_counts.completed} completed, ${batch.request_counts.failed} failed)`],
    ['wall time (upload to end)', `${seconds.toFixed(1)} s`],
    ['lines/s', (lines / seconds).toFixed(1)],
    ...(mem.before === undefined ? [] : [['gateway RSS before / VmHWM once submitted / most RSS sampled while it ran / VmHWM at the end', `${mem.before.toFixed(0)} / ${mem.submitted?.toFixed(0)} / ${mem.max.toFixed(0)} / ${mem.peak === undefined ? "- (killed)" : mem.peak.toFixed(0)} MiB`]]),
    ['answered once', `${check.answered} output lines; missing ${JSON.stringify(check.unanswered)}, twice ${JSON.stringify(check.duplicated)}`],
    ['billed once', `${check.ledgerRows} ledger rows; unbilled ${JSON.stringify(check.unbilled)}, stray ${JSON.stringify(check.strayRows)}; $${check.costUsd.toFixed(6)}`],
    ['exactly once', check.ok ? 'yes' : 'NO'],
    ...(probe ? probeRows(probe.alone, probe.beside) : []),
  ];
  return ['| | |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join('\n');
}

const probe: ProbeOptions | undefined = probeRps > 0 ? { url, key, model: values.model, rps: probeRps, mode: values['probe-mode'] } : undefined;
const alone = probe ? await runProbe(probe, sleep(probeSeconds * 1000)) : undefined;
const before = memory()?.rssMb;
const started = performance.now();
let submitted: number | undefined;
const ran = submit().then((created) => {
  submitted = memory()?.peakMb;
  return waitEnded(created.id);
});
const beside = probe ? await runProbe(probe, ran) : undefined;
const { batch, maxRssMb } = await ran;
const seconds = (performance.now() - started) / 1000;
const output = [...(batch.output_file_id ? jsonLines<OutputLine>(await text(url, `/v1/files/${batch.output_file_id}/content`)) : []), ...(batch.error_file_id ? jsonLines<OutputLine>(await text(url, `/v1/files/${batch.error_file_id}/content`)) : [])];
const check = checkBatch(lines, output, await ledgerOf(batch.id));
const mem = { ...(before === undefined ? {} : { before }), ...(submitted === undefined ? {} : { submitted }), max: maxRssMb, ...(values.pid && !killed ? { peak: memory()?.peakMb ?? 0 } : {}) };
console.log(`batch ${batch.id}\n${report(batch, seconds, check, mem, alone && beside ? { alone, beside } : undefined)}`);
process.exit(check.ok ? 0 : 1);
