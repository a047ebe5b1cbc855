/** Counters of {@link hedge}, for the control plane's hedging stats. */
export class HedgeStats {
  /** `hedge()` calls. */
  requests = 0;
  /** Secondaries started because the primary was still running after the delay. */
  fired = 0;
  /** Requests the secondary served (after a hedge, or after the primary failed). */
  secondaryWins = 0;
  /** Attempts aborted because the other one won or the caller aborted. */
  cancelled = 0;
  /** Requests where both attempts failed. */
  bothFailed = 0;

  /** A plain copy, e.g. for a JSON answer. */
  snapshot(): { requests: number; fired: number; secondaryWins: number; cancelled: number; bothFailed: number } {
    return { requests: this.requests, fired: this.fired, secondaryWins: this.secondaryWins, cancelled: this.cancelled, bothFailed: this.bothFailed };
  }
}

/** Options of {@link hedge}. */
export interface HedgeOptions<T> {
  /**
   * Start the secondary when the primary has not settled after this many ms (e.g. the primary's
   * recent p95 from `LatencyTracker.hedgeDelay`). A non-finite value never hedges on time.
   */
  delayMs: number;
  /** The request's signal: aborting it aborts both attempts and rejects with its reason. */
  signal?: AbortSignal;
  stats?: HedgeStats;
  /**
   * Whether a primary failure leaves the secondary worth trying. Default: always. Return false for
   * caller faults (e.g. `!error.retryable`) so they reject at once and abort a running secondary.
   */
  fallBackOn?: (error: unknown) => boolean;
  /** Receives a value that succeeded after the race was decided (e.g. close an opened stream). */
  dispose?: (value: T) => void;
}

export interface HedgeResult<T> {
  value: T;
  winner: 'primary' | 'secondary';
  /** Whether the secondary was started at all (on time, or because the primary failed). */
  secondaryStarted: boolean;
}

type Attempt<T> = (signal: AbortSignal) => Promise<T>;

type Side = 'primary' | 'secondary';

const otherSide = (side: Side): Side => (side === 'primary' ? 'secondary' : 'primary');

/** The state of one {@link hedge} call: which attempts run, which failed, whether the race is decided. */
class HedgeRace<T> {
  readonly #attempts: Record<Side, Attempt<T>>;
  readonly #options: HedgeOptions<T>;
  readonly #resolve: (result: HedgeResult<T>) => void;
  readonly #reject: (reason: unknown) => void;
  readonly #controllers = { primary: new AbortController(), secondary: new AbortController() };
  readonly #running = { primary: false, secondary: false };
  readonly #failed: { primary?: { error: unknown }; secondary?: { error: unknown } } = {};
  #secondaryStarted = false;
  #settled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(attempts: Record<Side, Attempt<T>>, options: HedgeOptions<T>, settle: { resolve: (result: HedgeResult<T>) => void; reject: (reason: unknown) => void }) {
    this.#attempts = attempts;
    this.#options = options;
    this.#resolve = settle.resolve;
    this.#reject = settle.reject;
  }

  /** Starts the primary, and the timer that starts the secondary after `delayMs`. */
  start(): void {
    this.#options.signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#run('primary');
    if (this.#settled || this.#secondaryStarted || !Number.isFinite(this.#options.delayMs)) return;
    this.#timer = setTimeout(
      () => {
        if (this.#settled || this.#secondaryStarted) return;
        if (this.#options.stats !== undefined) this.#options.stats.fired++;
        this.#startSecondary();
      },
      Math.max(0, this.#options.delayMs),
    );
  }

  #cancel(which: Side, reason: unknown): void {
    if (!this.#running[which]) return;
    this.#running[which] = false;
    this.#controllers[which].abort(reason);
    if (this.#options.stats !== undefined) this.#options.stats.cancelled++;
  }

  #settle(finish: () => void): void {
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    finish();
  }

  readonly #onAbort = (): void => {
    if (this.#settled) return;
    const reason: unknown = this.#options.signal?.reason;
    this.#cancel('primary', reason);
    this.#cancel('secondary', reason);
    this.#settle(() => this.#reject(reason));
  };

  #run(which: Side): void {
    this.#running[which] = true;
    let attempt: Promise<T>;
    try {
      attempt = this.#attempts[which](this.#controllers[which].signal);
    } catch (error) {
      attempt = Promise.reject(error);
    }
    attempt.then(
      (value) => this.#succeeded(which, value),
      (error: unknown) => this.#failedWith(which, error),
    );
  }

  #succeeded(which: Side, value: T): void {
    this.#running[which] = false;
    if (this.#settled) {
      this.#options.dispose?.(value);
      return;
    }
    this.#cancel(otherSide(which), new DOMException('The other hedged attempt won.', 'AbortError'));
    if (which === 'secondary' && this.#options.stats !== undefined) this.#options.stats.secondaryWins++;
    this.#settle(() => this.#resolve({ value, winner: which, secondaryStarted: this.#secondaryStarted }));
  }

  #failedWith(which: Side, error: unknown): void {
    const wasRunning = this.#running[which];
    this.#running[which] = false;
    // A cancelled loser's rejection is expected; the race is already decided.
    if (this.#settled || !wasRunning) return;
    this.#failed[which] = { error };
    if (which === 'secondary') {
      if (this.#failed.primary !== undefined) this.#bothFailed(this.#failed.primary.error);
      return;
    }
    const fallBackOn = this.#options.fallBackOn ?? (() => true);
    if (!fallBackOn(error)) {
      this.#cancel('secondary', error);
      this.#settle(() => this.#reject(error));
    } else if (!this.#secondaryStarted) {
      this.#startSecondary();
    } else if (this.#failed.secondary !== undefined) {
      this.#bothFailed(error);
    }
  }

  #bothFailed(primaryError: unknown): void {
    if (this.#options.stats !== undefined) this.#options.stats.bothFailed++;
    this.#settle(() => this.#reject(primaryError));
  }

  #startSecondary(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#secondaryStarted = true;
    this.#run('secondary');
  }
}

/**
 * Races a primary against a secondary started after `delayMs` (or at once when the primary fails
 * first). Resolves with the first success and aborts the other attempt; rejects with the
 * primary's error only when both failed, or with the signal's reason when the caller aborts.
 *
 * Use it where nothing has reached the client yet: a non-stream call, or a stream up to its
 * first event (the attempt resolves with the opened stream).
 */
export function hedge<T>(primary: Attempt<T>, secondary: Attempt<T>, options: HedgeOptions<T>): Promise<HedgeResult<T>> {
  if (options.stats !== undefined) options.stats.requests++;
  return new Promise<HedgeResult<T>>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason);
      return;
    }
    new HedgeRace({ primary, secondary }, options, { resolve, reject }).start();
  });
}
