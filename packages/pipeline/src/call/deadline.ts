import { type Aborter, RequestAbort, clientClosedRequest, leftByClient, requestTimeout } from '@svc/core';

/** Milliseconds; 0 disables a limit. */
export interface GatewayTimeouts {
  /** The whole request, streams included (the SDKs' own default is 10 minutes). */
  requestMs: number;
  /** A stream's first event, per candidate; `perProvider` overrides it by provider id. */
  firstByteMs: number;
  perProvider?: Readonly<Record<string, { firstByteMs?: number }>>;
}

/** The request deadline (10 minutes, the SDKs' own) and a provider's time to its first byte (2 minutes) when the deps set none. */
export const defaultTimeouts: GatewayTimeouts = { requestMs: 600_000, firstByteMs: 120_000 };

/**
 * An abort signal that fires when the parent does (the client left) or when `ms` have passed.
 * One timer, cleared by `clear()` when the work ends early: `AbortSignal.timeout` would leave
 * a pending timer per request for the whole deadline.
 */
export interface Deadline {
  signal: AbortSignal;
  /** True once the timer, not the parent, aborted the signal. */
  readonly expired: boolean;
  /** The timer's length (0: none). */
  readonly ms: number;
  /** Stops the timer; the signal still follows the parent (a stream outlives its first byte). */
  clear(): void;
  /**
   * The work is over: stops the timer and stops following the parent, so a parent that outlives
   * many deadlines (a request's fallbacks, an MCP loop's rounds) does not collect a listener per one.
   */
  release(): void;
}

const never: Deadline = {
  signal: new AbortController().signal,
  expired: false,
  ms: 0,
  clear() {},
  release() {},
};

/**
 * With `owner`, the controller of `parent` itself (the request's own, `Exchange.abort`), the timer
 * aborts that controller: one signal serves the client's leaving and the deadline, and no
 * controller or listener is made. Without it the deadline's signal is a controller of its own
 * that follows `parent`.
 */
export function createDeadline(parent: AbortSignal, ms: number, owner?: Aborter): Deadline {
  // No timer wanted: the parent alone decides, and nothing is allocated.
  if (!(ms > 0 && Number.isFinite(ms))) return { ...never, signal: parent };
  return new TimedDeadline(parent, ms, owner?.signal === parent ? owner : undefined);
}

const once = { once: true } as const;


function expire(deadline: TimedDeadline): void {
  deadline.expire();
}

/**
 * A deadline on the request path (one per request and one per attempt): its own methods and the
 * parent's listener are the object itself (`handleEvent`), so it allocates no closures beside its
 * controller and timer.
 */
class TimedDeadline implements Deadline {
  readonly #controller: Aborter;
  readonly #parent: AbortSignal;
  /** False when the controller is the parent's own (nothing to follow). */
  readonly #follows: boolean;
  readonly #timer: NodeJS.Timeout;
  #expired = false;
  readonly signal: AbortSignal;
  readonly ms: number;

  constructor(parent: AbortSignal, ms: number, owner: Aborter | undefined) {
    this.#parent = parent;
    this.ms = ms;
    this.#follows = owner === undefined;
    this.#controller = owner ?? new RequestAbort();
    this.signal = this.#controller.signal;
    if (this.#follows) {
      if (parent.aborted) this.#controller.abort(parent.reason);
      else parent.addEventListener('abort', this, once);
    }
    this.#timer = setTimeout(expire, ms, this);
    this.#timer.unref();
  }

  get expired(): boolean {
    return this.#expired;
  }

  /** The parent aborted (EventListener object form). */
  handleEvent(): void {
    this.#controller.abort(this.#parent.reason);
  }

  expire(): void {
    this.#expired = true;
    this.#controller.abort(new DOMException(`Deadline of ${this.ms} ms exceeded.`, 'TimeoutError'));
  }

  clear(): void {
    clearTimeout(this.#timer);
  }

  release(): void {
    clearTimeout(this.#timer);
    if (this.#follows) this.#parent.removeEventListener('abort', this);
  }
}

/**
 * The request's whole time: the caller's own timeout (`svc.timeout_ms` / `x-svc-timeout-ms`)
 * when it set one, never more than the server's (`SVC_REQUEST_TIMEOUT_MS`; 0 there: no cap).
 */
export function requestTimeoutMs(serverMs: number, requestedMs: number | undefined): number {
  if (requestedMs === undefined) return serverMs;
  return serverMs > 0 ? Math.min(serverMs, requestedMs) : requestedMs;
}

/**
 * What a failure is once the request's own end came: 504 `request_timeout` when its deadline
 * passed, 499 `client_closed_request` when its client left (whatever the aborted call threw, a
 * provider's timeout among them); otherwise `error` itself.
 */
export function overDeadline(deadline: Deadline, error: unknown): unknown {
  if (deadline.expired) return requestTimeout(deadline.ms, error);
  return leftByClient(deadline.signal) ? clientClosedRequest(error) : error;
}
