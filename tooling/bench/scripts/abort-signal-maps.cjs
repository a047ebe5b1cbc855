// Does this Node give every AbortSignal a hidden class of its own? Node 20 makes a signal as an
// EventTarget, swaps its prototype and then adds three properties (createAbortSignal); V8 does not
// share the maps made after such a swap, so each signal gets fresh maps in the old generation, and
// the scavenges that follow promote much of what survives them (measured on 20.20.2: ~300 MB
// promoted and ~47 mark-compacts for 600,000 signals against 2 MB and none for objects built by
// their own class, the way Node 22 makes a signal, nodejs/node#52408). Prints one line a kind.
//   node --allow-natives-syntax tooling/bench/scripts/abort-signal-maps.cjs
const { PerformanceObserver, constants } = require('node:perf_hooks');

const k1 = Symbol('kAborted');
const k2 = Symbol('kReason');
const k3 = Symbol('kComposite');
// Node 22's way: constructed by its own class, no prototype swap.
class OwnClassSignal extends EventTarget {
  constructor() {
    super();
    this[k1] = false;
    this[k2] = undefined;
    this[k3] = false;
  }
}
const kinds = { node: () => new AbortController().signal, ownClass: () => new OwnClassSignal() };
// %HaveSameMap with --allow-natives-syntax; null without it.
const sameMap = (() => {
  try {
    return new Function('a', 'b', 'return %HaveSameMap(a, b)');
  } catch {
    return null;
  }
})();

let majors = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
}).observe({ entryTypes: ['gc'] });

async function run(name) {
  const make = kinds[name];
  const shared = sameMap ? sameMap(make(), make()) : null;
  const before = majors;
  let keep = [];
  // 3,000 turns of 200 signals and 10,000 small objects each, all dead at the turn's end.
  for (let turn = 0; turn < 3000; turn++) {
    for (let i = 0; i < 200; i++) {
      keep.push(make());
      for (let j = 0; j < 50; j++) keep.push({ x: j, y: [j] });
    }
    keep = [];
    await new Promise(setImmediate);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  console.log(JSON.stringify({ node: process.version, kind: name, sharedHiddenClass: shared, markCompacts: majors - before }));
}

(async () => {
  for (const name of Object.keys(kinds)) await run(name);
})();
