// Preload for the gateway (node -r): SIGUSR2 opens, and a second SIGUSR2 closes, a measured window.
// Over it: the main thread's CPU and run-queue wait (/proc/self/task/<pid>/schedstat, ns), every gap
// of the loop over 10 ms between two runs of a 2 ms timer (with the main thread's CPU and wait
// during it: a gap with little CPU was the scheduler's, not the gateway's), and every GC (a `gc`
// PerformanceObserver). PROBE_HEAP=1 also runs V8's sampling heap profiler over the window (PROBE_HEAP=promoted:
// without the objects a scavenge collected, i.e. what was promoted or is still young at the end). Writes
// PROBE_OUT (JSON) and PROBE_OUT.heapprofile; prints "PROBE start"/"PROBE stop" on stdout so that
// --trace-gc-nvp lines can be cut to the window. Used by request-cost.sh.
const fs = require('node:fs');
const { PerformanceObserver, performance } = require('node:perf_hooks');

const out = process.env.PROBE_OUT || 'probe.json';
const schedFd = fs.openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
const schedBuf = Buffer.alloc(128);
const sched = () => {
  const n = fs.readSync(schedFd, schedBuf, 0, 128, 0);
  const parts = schedBuf.latin1Slice(0, n).split(' ');
  return [Number(parts[0]), Number(parts[1])];
};
const round = (x) => Math.round(x * 10) / 10;
let on = false;
let stalls = [];
let gcs = [];
let start = null;
let last = performance.now();
let lastSched = sched();
setInterval(() => {
  const now = performance.now();
  const s = sched();
  if (on && now - last > 10) {
    stalls.push({ at: round(now - start.t), gap: round(now - last), run: round((s[0] - lastSched[0]) / 1e6), wait: round((s[1] - lastSched[1]) / 1e6) });
  }
  last = now;
  lastSched = s;
}, 2).unref();
new PerformanceObserver((list) => {
  if (!on) return;
  for (const e of list.getEntries()) gcs.push({ at: round(e.startTime - start.t), ms: Math.round(e.duration * 100) / 100, kind: e.detail?.kind });
}).observe({ entryTypes: ['gc'] });

let session = null;
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));

process.on('SIGUSR2', async () => {
  if (!on) {
    stalls = [];
    gcs = [];
    start = { t: performance.now(), s: sched() };
    if (process.env.PROBE_HEAP) {
      const { Session } = require('node:inspector');
      session = new Session();
      session.connect();
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMinorGC: process.env.PROBE_HEAP !== 'promoted', includeObjectsCollectedByMajorGC: true });
    }
    fs.writeSync(1, 'PROBE start\n');
    on = true;
    return;
  }
  on = false;
  fs.writeSync(1, 'PROBE stop\n');
  const s = sched();
  const result = { wallMs: performance.now() - start.t, mainRunMs: (s[0] - start.s[0]) / 1e6, mainWaitMs: (s[1] - start.s[1]) / 1e6, stalls, gcs };
  if (session) {
    const { profile } = await post('HeapProfiler.stopSampling');
    fs.writeFileSync(`${out}.heapprofile`, JSON.stringify(profile));
  }
  fs.writeFileSync(out, JSON.stringify(result));
});
