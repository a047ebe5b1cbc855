// Time to first token of one streamed request at a time with unique prompts (so cache and full mode miss), and
// where it goes: the gateway's OpenTelemetry stage spans, received here over OTLP/HTTP JSON, each stage's start
// (ms after the request span's, at the exporter's ms resolution) and duration (p50). Used by ttft-stages.sh.
//   node ttft-stages.mjs <gateway port> <OTLP port, 0: no spans> <mode> <requests> <prompt offset>
import http from 'node:http';
const [gw, otlpPort, mode, countArg, offsetArg] = process.argv.slice(2);
const count = Number(countArg); const offset = Number(offsetArg ?? 0);
const KEY = 'sk-svc-bench-0123456789abcdef0123456789abcdef';
const spans = [];
const sink = http.createServer((req, res) => { let b = ''; req.on('data', (c) => (b += c)); req.on('end', () => { try { for (const rs of JSON.parse(b).resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans); } catch {} res.end('{}'); }); });
if (otlpPort !== '0') await new Promise((r) => sink.listen(Number(otlpPort), '127.0.0.1', r));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const topics = ['rivers', 'volcanoes', 'sorting algorithms', 'tax law', 'baking bread', 'orbital mechanics', 'jazz history', 'soil chemistry'];
function ask(i) {
  const q = `Question ${offset + i}: in two sentences, what should a beginner know about ${topics[i % topics.length]} number ${offset + i}?`;
  const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true, stream_options: { include_usage: true } });
  return new Promise((resolve) => {
    const t0 = performance.now(); let at; let id;
    const req = http.request({ host: '127.0.0.1', port: Number(gw), path: '/v1/chat/completions', method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-intelligence-mode': mode } }, (res) => {
      id = res.headers['x-svc-request-id'];
      res.setEncoding('utf8');
      res.on('data', (c) => { if (at === undefined && c.includes('"content":"')) at = performance.now() - t0; });
      res.on('end', () => resolve({ ms: at, id, status: res.statusCode }));
    });
    req.end(body);
  });
}
for (let i = 0; i < 10; i++) await ask(count + 1000 + i); // warm-up
const samples = [];
for (let i = 0; i < count; i++) samples.push(await ask(i));
await new Promise((r) => setTimeout(r, 2500));
const sorted = samples.map((s) => s.ms).filter((x) => x !== undefined).sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
console.log(JSON.stringify({ mode, n: sorted.length, failed: samples.length - sorted.length, p50: +pct(50).toFixed(2), p90: +pct(90).toFixed(2) }));
if (spans.length > 0) {
  const ns = (v) => Number(BigInt(v));
  const byTrace = new Map();
  for (const s of spans) { if (!byTrace.has(s.traceId)) byTrace.set(s.traceId, []); byTrace.get(s.traceId).push(s); }
  const stages = new Map();
  for (const list of byTrace.values()) {
    const root = list.find((s) => !s.parentSpanId || s.kind === 2);
    if (!root?.name.includes('chat/completions')) continue;
    const r0 = ns(root.startTimeUnixNano);
    for (const s of list) {
      if (s === root) continue;
      const e = stages.get(s.name) ?? { start: [], dur: [] };
      e.start.push((ns(s.startTimeUnixNano) - r0) / 1e6); e.dur.push((ns(s.endTimeUnixNano) - ns(s.startTimeUnixNano)) / 1e6);
      stages.set(s.name, e);
    }
  }
  const med = (a) => { const x = [...a].sort((p, q) => p - q); return +x[Math.floor(x.length / 2)].toFixed(2); };
  for (const [name, e] of [...stages].sort((a, b) => med(a[1].start) - med(b[1].start))) console.log(`  ${name.padEnd(28)} n=${e.dur.length} start p50 ${med(e.start)} ms, duration p50 ${med(e.dur)} ms`);
}
sink.close(); agent.destroy();
