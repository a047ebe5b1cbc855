// What ran inside the event loop's long gaps, from a `PROBE=loop-holds PROBE_CPU=1 request-cost.sh`
// run: the CPU profile's samples that fall inside the gaps over MIN_GAP ms (default 10), by the
// function that was running (self) and by the svc or Node function nearest the top of the stack, with
// the share of V8's own states ((garbage collector), (program)). Prints one JSON line.
//   node loop-holds-cpu.mjs <out dir> [min gap ms]
import { readFileSync } from 'node:fs';

const [out, minArg = '10'] = process.argv.slice(2);
const probe = JSON.parse(readFileSync(`${out}/probe.json`, 'utf8'));
const profile = JSON.parse(readFileSync(`${out}/probe.json.cpuprofile`, 'utf8'));
const gaps = probe.holds.filter((h) => h.gap > Number(minArg)).map((h) => [h.t0Us, h.t0Us + h.gap * 1000]);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const nameOf = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
/** The nearest frame (from the top) in svc's own code, else in node_modules, else Node's. */
const ownerOf = (id) => {
  let firstDep;
  for (let n = byId.get(id); n; n = byId.get(parent.get(n.id))) {
    const url = n.callFrame.url;
    if (url.includes('/packages/') || url.includes('/apps/')) {
      if (!url.includes('node_modules')) return nameOf(n);
      firstDep ??= nameOf(n);
    }
  }
  return firstDep ?? '(node or V8)';
};
const self = new Map();
const owner = new Map();
let inside = 0;
let t = profile.startTime;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  if (!gaps.some(([a, b]) => t >= a && t <= b)) return;
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  inside += dt;
  const n = byId.get(id);
  const key = n.callFrame.url ? nameOf(n) : n.callFrame.functionName;
  self.set(key, (self.get(key) ?? 0) + dt);
  const o = n.callFrame.url ? ownerOf(id) : n.callFrame.functionName;
  owner.set(o, (owner.get(o) ?? 0) + dt);
});
const top = (m) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => [k, Math.round(v * 10) / 10]));
const gapMs = Math.round(gaps.reduce((n, [a, b]) => n + (b - a) / 1000, 0));
console.log(JSON.stringify({ gaps: gaps.length, gapMs, sampledMs: Math.round(inside), self: top(self), owner: top(owner) }));
