import { ENCODERS, type EncoderBenchReport, encoderAdded, FULL_BACKGROUND, PROXY_PROBE } from './encoder-bench.js';
import type { MachineInfo } from './machine.js';
import { fmt, runLine, signed } from './render-format.js';

/** The sentence-encoder section: both encoders' runs, what minilm adds, and the proxy probe alone vs beside full-mode load. */
export function renderEncoder(report: EncoderBenchReport, machine: MachineInfo): string {
  const lines = [
    runLine(machine),
    '',
    `Two svc processes one after the other, each alone on the gateway CPU with its default settings except \`SVC_SENTENCE_ENCODER\`. \`cache\`: unique questions with \`x-intelligence-mode: cache\`. \`full\`: memory prompts (\`memoryPrompt(i)\` in \`tooling/bench/src/memory-prompts.ts\`: every other request states three unique facts about one of 64 end users, the others ask about them; every text unique, so no cache answers: see upstream calls/req). Proxy probe: \`x-intelligence-mode: proxy\` at ${PROXY_PROBE.rate} req/s over ${PROXY_PROBE.connections} connections, alone and then beside full-mode memory prompts at ${FULL_BACKGROUND.rate} req/s over ${FULL_BACKGROUND.connections} connections on the same process (its CPU/req there is the process's CPU over both loads' responses).`,
    '',
    '| encoder | `/ready` encoder | idle RSS MB | peak RSS MB | memory check (injected) |',
    '|---|---|---:|---:|---:|',
    ...report.instances.map((i) => `| ${i.encoder} | ${i.ready} | ${fmt(i.idleRssMb, 0)} | ${fmt(i.peakRssMb, 0)} | ${i.verifiedInjected} |`),
    '',
    '| encoder | kind | conn | req/s | p50 ms | p99 ms | CPU µs/req | upstream calls/req | failed |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const i of report.instances) {
    for (const r of i.runs) {
      const m = r.measurement;
      const calls = m.upstreamRequests === undefined || m.load.responses === 0 ? undefined : m.upstreamRequests / (m.load.responses + (r.background?.responses ?? 0));
      lines.push(`| ${i.encoder} | ${r.kind}${r.rate ? ` @ ${r.rate}/s` : ''} | ${r.connections} | ${fmt(m.load.rps, 0)} | ${fmt(m.load.latency.p50)} | ${fmt(m.load.latency.p99)} | ${fmt(m.cpuUsPerRequest, 0)} | ${fmt(calls)} | ${m.load.non2xx + m.load.errors} |`);
    }
  }
  const minilm = report.instances.find((i) => i.encoder === 'minilm');
  if (minilm && report.instances.length === ENCODERS.length) {
    lines.push('', '**What minilm adds** (minilm − hashed, same kind and connections):', '', '| kind | conn | p50 ms | p99 ms | CPU µs/req |', '|---|---:|---:|---:|---:|');
    for (const r of minilm.runs) {
      const d = encoderAdded(report, r.kind, r.connections);
      if (d) lines.push(`| ${r.kind} | ${r.connections} | ${signed(d.p50Ms)} | ${signed(d.p99Ms)} | ${signed(d.cpuUs, 0)} |`);
    }
  }
  lines.push('', '**Proxy probe alone vs beside full-mode load** (same process):', '', '| encoder | proxy p50 alone | beside full | proxy p99 alone | beside full | p99 added |', '|---|---:|---:|---:|---:|---:|');
  for (const i of report.instances) {
    const alone = i.runs.find((r) => r.kind === 'proxy alone')?.measurement.load.latency;
    const beside = i.runs.find((r) => r.kind === 'proxy beside full')?.measurement.load.latency;
    if (alone && beside) lines.push(`| ${i.encoder} | ${fmt(alone.p50)} | ${fmt(beside.p50)} | ${fmt(alone.p99)} | ${fmt(beside.p99)} | ${signed(beside.p99 - alone.p99)} |`);
  }
  if (report.skipped.length > 0) lines.push('', ...report.skipped.map((s) => `- **not measured:** ${s}`));
  return lines.join('\n');
}
