// One streamed request at a time, alternating the mock upstream itself (direct) and the gateway,
// unique prompts: time to first token of each (p50/p90 ms), the gateway's added time, and the
// gateway's CPU (every thread, /proc ticks) a request. Used by ttft-trace.sh.
//   node ttft-trace-client.mjs <mock port> <gateway port> <gateway pid> <mode> <requests> <prompt offset>
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [mockPort, gatewayPort, pid, mode, countArg, offsetArg] = process.argv.slice(2);
const count = Number(countArg);
const offset = Number(offsetArg);
const KEY = 'sk-svc-bench-0123456789abcdef0123456789abcdef';
const topics = ['rivers', 'volcanoes', 'sorting algorithms', 'tax law', 'baking bread', 'orbital mechanics', 'jazz history', 'soil chemistry'];
const agents = { direct: new http.Agent({ keepAlive: true, maxSockets: 1 }), svc: new http.Agent({ keepAlive: true, maxSockets: 1 }) };

function firstToken(port, agent, i, headers) {
  const question = `Question ${offset + i}: in two sentences, what should a beginner know about ${topics[i % topics.length]} number ${offset + i}?`;
  const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: question }], stream: true, stream_options: { include_usage: true } });
  return new Promise((resolve) => {
    const started = performance.now();
    let at;
    let seen = '';
    const req = http.request({ host: '127.0.0.1', port: Number(port), path: '/v1/chat/completions', method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        if (at !== undefined) return;
        seen += chunk;
        if (/"content":"[^"]/.test(seen)) at = performance.now() - started;
      });
      res.on('end', () => resolve(at));
    });
    req.end(body);
  });
}
/** The gateway's CPU so far, every thread, ms (clock ticks of 10 ms). */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const modeHeader = { 'x-intelligence-mode': mode };
for (let i = 0; i < 20; i++) {
  await firstToken(mockPort, agents.direct, 5_000_000 + i, {});
  await firstToken(gatewayPort, agents.svc, 5_000_000 + i, modeHeader);
}
const direct = [];
const svc = [];
let cpu = 0;
for (let i = 0; i < count; i++) {
  direct.push(await firstToken(mockPort, agents.direct, i, {}));
  const before = cpuMs();
  svc.push(await firstToken(gatewayPort, agents.svc, i, modeHeader));
  // Let the request's ending (ledger row, cache store) finish inside the CPU window.
  await new Promise((resolve) => setTimeout(resolve, 5));
  cpu += cpuMs() - before;
}
const pct = (values, p) => {
  const sorted = values.filter((v) => v !== undefined).sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(3));
};
const d = [pct(direct, 50), pct(direct, 90)];
const s = [pct(svc, 50), pct(svc, 90)];
console.log(JSON.stringify({ mode, requests: count, direct: d, svc: s, added: [Number((s[0] - d[0]).toFixed(3)), Number((s[1] - d[1]).toFixed(3))], failed: svc.filter((v) => v === undefined).length, cpuMsPerRequest: Number((cpu / count).toFixed(2)) }));
agents.direct.destroy();
agents.svc.destroy();
