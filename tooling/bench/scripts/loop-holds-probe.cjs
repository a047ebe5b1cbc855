// Preload for the gateway (node -r): what holds the event loop. SIGUSR2 opens, and a second SIGUSR2
// closes, a measured window. Over it: a 1 ms `monitorEventLoopDelay` histogram (the figure the bench
// reports, at a finer resolution), and a 1 ms timer that records every gap over HOLD_MS (3) between
// two of its runs with what happened inside it: the main thread's own CPU (schedstat, so a gap the
// scheduler made reads little), the CPU of the process's other threads (the store and encoder
// threads, V8's and libuv's helpers: on a gateway pinned to one CPU they take it from the main
// thread), the main isolate's GCs (a `gc` PerformanceObserver: kind, duration),
// and how many HTTP requests started and answers finished (diagnostics_channel), so a long turn can
// be told apart as a GC, a batch of requests served in one turn, or something else. Writes PROBE_OUT
// (JSON); summarised by loop-holds-summary.mjs. Used by `PROBE=loop-holds request-cost.sh`. PROBE_SURVIVORS=1 also runs
// V8's sampling heap profiler over the window keeping only what outlived the scavenges (objects a
// scavenge collected are dropped, those a mark-compact collected kept): what each allocation site
// promotes, in PROBE_OUT.heapprofile (run the gateway with --expose-gc for it).
// PROBE_CPU=1 runs V8's CPU profiler over the window (a sample every 100 µs) and writes it to
// PROBE_OUT.cpuprofile; each gap then carries `t0Us`, its start on the profile's clock (monotonic µs), so
// loop-holds-cpu.mjs can say which functions ran inside the gaps (starting the profiler holds the loop
// for ~130 ms at the window's start: that first gap is the profiler's own).
// PROBE_SNAPSHOT_MS=n writes a heap snapshot n ms into the window (PROBE_OUT.heapsnapshot).
const fs = require('node:fs');
const dc = require('node:diagnostics_channel');
const { PerformanceObserver, performance, monitorEventLoopDelay } = require('node:perf_hooks');

const out = process.env.PROBE_OUT || 'loop-holds.json';
const holdMs = Number(process.env.HOLD_MS || 3);
const schedFd = fs.openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
const schedBuf = Buffer.alloc(128);
const schedRunNs = () => {
  const n = fs.readSync(schedFd, schedBuf, 0, 128, 0);
  return Number(schedBuf.latin1Slice(0, n).split(' ')[0]);
};
// The main thread's CPU: schedstat does not add the running thread's current stretch (it moves at
// the scheduler's tick, 4 ms here, and at switches), so a gap's own run would read in 4 ms steps;
// clock_gettime(CLOCK_THREAD_CPUTIME_ID) does, through koffi from the gateway's install where it is.
const threadClock = (() => {
  try {
    const koffi = require('node:module').createRequire(`${process.cwd()}/apps/server/package.json`)('koffi');
    koffi.struct('probe_timespec', { tv_sec: 'int64', tv_nsec: 'long' }); // declared for the signature below
    const gettime = koffi.load('libc.so.6').func('int clock_gettime(int clk, _Out_ probe_timespec *tp)');
    const ts = {};
    return () => {
      gettime(3, ts); // CLOCK_THREAD_CPUTIME_ID
      return ts.tv_sec * 1e9 + ts.tv_nsec;
    };
  } catch {
    return undefined;
  }
})();
const runNs = threadClock ?? schedRunNs;
const round = (x) => Math.round(x * 100) / 100;

let on = false;
let t0 = 0;
let run0 = 0;
let holds = [];
let gcs = [];
let started = 0;
let finished = 0;
// The other threads' schedstat files, opened when a window opens (the threads exist by then).
let others = [];
let otherNow = [];
let otherLast = [];
let otherStart = [];
const othersNs = () => {
  let sum = 0;
  others.forEach(({ fd }, i) => {
    const n = fs.readSync(fd, schedBuf, 0, 128, 0);
    otherNow[i] = Number(schedBuf.latin1Slice(0, n).split(' ')[0]);
    sum += otherNow[i];
  });
  return sum;
};
const openOthers = () => {
  for (const { fd } of others) fs.closeSync(fd);
  const tids = fs.readdirSync('/proc/self/task').filter((tid) => tid !== String(process.pid));
  others = tids.map((tid) => ({ tid, fd: fs.openSync(`/proc/self/task/${tid}/schedstat`, 'r') }));
  otherNow = others.map(() => 0);
};
/** The other threads that ran at least 0.5 ms since the last tick: { tid: ms }. */
const busyOthers = () => {
  const busy = {};
  others.forEach(({ tid }, i) => {
    const ms = (otherNow[i] - otherLast[i]) / 1e6;
    if (ms >= 0.5) busy[tid] = round(ms);
  });
  return busy;
};
// performance.now() + originUs = CLOCK_MONOTONIC in µs, the clock of V8's profile timestamps.
const originUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
let last = performance.now();
let lastRun = runNs();
let lastOthers = 0;
let lastStarted = 0;
let lastFinished = 0;
const histogram = monitorEventLoopDelay({ resolution: 1 });

dc.subscribe('http.server.request.start', () => {
  started++;
});
dc.subscribe('http.server.response.finish', () => {
  finished++;
});

setInterval(() => {
  const now = performance.now();
  const run = runNs();
  const otherRun = on ? othersNs() : 0;
  if (on && now - last > holdMs) {
    holds.push({
      at: round(last - t0),
      t0Us: Math.round(last * 1000 + originUs),
      gap: round(now - last),
      run: round((run - lastRun) / 1e6),
      others: round((otherRun - lastOthers) / 1e6),
      threads: busyOthers(),
      started: started - lastStarted,
      finished: finished - lastFinished,
    });
  }
  last = now;
  lastRun = run;
  lastOthers = otherRun;
  otherLast = otherNow.slice();
  lastStarted = started;
  lastFinished = finished;
}, 1).unref();

new PerformanceObserver((list) => {
  if (!on) return;
  for (const e of list.getEntries()) {
    gcs.push({ at: round(e.startTime - t0), ms: round(e.duration), kind: e.detail?.kind, flags: e.detail?.flags });
  }
}).observe({ entryTypes: ['gc'] });

let session = null;
const connect = () => {
  if (session) return;
  const { Session } = require('node:inspector');
  session = new Session();
  session.connect();
};
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));

process.on('SIGUSR2', async () => {
  if (!on) {
    if (process.env.PROBE_SURVIVORS) {
      connect();
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMinorGC: false, includeObjectsCollectedByMajorGC: true });
    }
    if (process.env.PROBE_CPU) {
      connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 100 });
      await post('Profiler.start');
    }
    holds = [];
    gcs = [];
    started = 0;
    finished = 0;
    lastStarted = 0;
    lastFinished = 0;
    openOthers();
    lastOthers = othersNs();
    otherLast = otherNow.slice();
    otherStart = otherNow.slice();
    t0 = performance.now();
    run0 = runNs();
    histogram.reset();
    histogram.enable();
    if (process.env.PROBE_SNAPSHOT_MS) {
      setTimeout(() => require('node:v8').writeHeapSnapshot(`${out}.heapsnapshot`), Number(process.env.PROBE_SNAPSHOT_MS));
    }
    fs.writeSync(1, 'PROBE start\n');
    on = true;
    return;
  }
  on = false;
  histogram.disable();
  fs.writeSync(1, 'PROBE stop\n');
  const ms = (ns) => round(ns / 1e6);
  const result = {
    wallMs: round(performance.now() - t0),
    mainRunMs: round((runNs() - run0) / 1e6),
    requests: finished,
    threadsMs: Object.fromEntries(others.map(({ tid }, i) => [tid, round((otherNow[i] - otherStart[i]) / 1e6)])),
    loopDelay: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), count: histogram.count },
    holds,
    gcs,
  };
  fs.writeFileSync(out, JSON.stringify(result));
  if (session && process.env.PROBE_CPU) {
    const { profile } = await post('Profiler.stop');
    fs.writeFileSync(`${out}.cpuprofile`, JSON.stringify(profile));
  }
  if (session && process.env.PROBE_SURVIVORS) {
    // Nothing is in flight now: two scavenges (with --expose-gc) drop what is still in the young
    // generation only because the window ended, so the profile keeps what outlives scavenges.
    if (typeof globalThis.gc === 'function') {
      globalThis.gc({ type: 'minor' });
      globalThis.gc({ type: 'minor' });
    }
    const { profile } = await post('HeapProfiler.stopSampling');
    fs.writeFileSync(`${out}.heapprofile`, JSON.stringify(profile));
  }
});
