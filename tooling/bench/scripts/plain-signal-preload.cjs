// Measurement only, never for serving: `node -r` this and every `new AbortController()` made by
// JavaScript gives a controller whose signal is an EventTarget of a class of its own (aborted,
// reason, throwIfAborted; abort() dispatches 'abort'), not Node's AbortSignal, so a request makes
// no Node 20 signal (see abort-signal-maps.cjs). Enough for the proxy path under the bench (one
// controller a request, exchangeOf's); AbortSignal.any() does not follow such a signal.
//   ... request-cost.sh <root> <out> 12000 --single-threaded-gc -r tooling/bench/scripts/plain-signal-preload.cjs
// Since 06639c3 the gateway's request path makes no Node AbortSignal itself (packages/core/src/request-abort.ts).
class PlainSignal extends EventTarget {
  constructor() {
    super();
    this.aborted = false;
    this.reason = undefined;
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
}
const NodeAbortController = AbortController;
globalThis.AbortController = function AbortController() {
  const signal = new PlainSignal();
  return {
    signal,
    abort(reason = new DOMException('This operation was aborted', 'AbortError')) {
      if (signal.aborted) return;
      signal.aborted = true;
      signal.reason = reason;
      signal.dispatchEvent(new Event('abort'));
    },
  };
};
globalThis.AbortController.prototype = NodeAbortController.prototype;
