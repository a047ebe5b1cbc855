/** What a request's code aborts: an `AbortController`, or a `RequestAbort`. */
export interface Aborter {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

/**
 * The abort controller of one HTTP request on the gateway's request path (one a request).
 *
 * Not an `AbortController` because of Node 20: it makes every `AbortSignal` as an EventTarget
 * whose prototype it then swaps, and V8 gives each such object hidden classes of its own, so a
 * request leaves new maps behind that reach the old generation, and their mark-compacts hold the
 * event loop (measured in `tooling/bench/scripts/abort-signal-maps.cjs`; Node 22 builds a signal
 * by its class, nodejs/node#52408). This signal is an instance of a class: all share one map.
 *
 * It is an `AbortSignal` to everything that reads one by its members (`aborted`, `reason`,
 * `throwIfAborted()`, `onabort`, the `abort` event): Node's timers, events and streams, and
 * undici's `request()` and Node's own `fetch`. What needs Node's class must be given
 * `nodeSignal(signal)`: undici 7's `fetch` refuses any other, and `AbortSignal.any` takes one but
 * never hears it abort.
 */
export class RequestAbort implements Aborter {
  readonly #signal = new RequestSignal();

  get signal(): AbortSignal {
    return this.#signal;
  }

  /** As `AbortController.abort`: the first call wins; without a reason, an `AbortError`. */
  abort(reason?: unknown): void {
    this.#signal.fire(reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason);
  }
}

/**
 * A signal Node's brand checks accept: `signal` itself, or, for a `RequestAbort`'s, a Node signal
 * that follows it (made on the first call, then the same one).
 */
export function nodeSignal(signal: AbortSignal): AbortSignal {
  return signal instanceof RequestSignal ? signal.node() : signal;
}

class RequestSignal extends EventTarget implements AbortSignal {
  #aborted = false;
  #reason: unknown = undefined;
  /** Undefined until first set (then its listener is added), null once cleared. */
  #onabort: ((this: AbortSignal, event: Event) => unknown) | null | undefined = undefined;
  #node: AbortController | undefined = undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** As on Node's: a listener of its own, in the order it was first set, its errors reported as any listener's. */
  get onabort(): ((this: AbortSignal, event: Event) => unknown) | null {
    return this.#onabort ?? null;
  }

  set onabort(handler: ((this: AbortSignal, event: Event) => unknown) | null) {
    if (this.#onabort === undefined) this.addEventListener('abort', (event) => this.#onabort?.call(this, event));
    this.#onabort = handler;
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  fire(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#node?.abort(reason);
    this.dispatchEvent(new Event('abort'));
  }

  node(): AbortSignal {
    if (this.#node === undefined) {
      this.#node = new AbortController();
      if (this.#aborted) this.#node.abort(this.#reason);
    }
    return this.#node.signal;
  }
}

/**
 * Whether a request's signal was aborted by its client leaving rather than by its deadline (whose
 * reason is a `TimeoutError`, whether the deadline owns the signal or follows it).
 */
export function leftByClient(signal: AbortSignal): boolean {
  if (!signal.aborted) return false;
  const reason: unknown = signal.reason;
  return !(reason instanceof Error && reason.name === 'TimeoutError');
}
