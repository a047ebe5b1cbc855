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

/**
 * Races a primary against a secondary started after `delayMs` (or at once when the primary fails
 * first). Resolves with the first success and aborts the other attempt; rejects with the
 * primary's error only when both failed, or with the signal's reason when the caller aborts.
 *
 * Use it where nothing has reached the client yet: a non-stream call, or a stream up to its
 * first event (the attempt resolves with the opened stream).
 */
export function hedge<T>(primary: Attempt<T>, secondary: Attempt<T>, options: HedgeOptions<T>): Promise<HedgeResult<T>> {
  const { signal, stats, dispose } = options;
  const fallBackOn = options.fallBackOn ?? (() => true);
  if (stats !== undefined) stats.requests++;

  return new Promise<HedgeResult<T>>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const controllers = { primary: new AbortController(), secondary: new AbortController() };
    const running = { primary: false, secondary: false };
    const failed: { primary?: { error: unknown }; secondary?: { error: unknown } } = {};
    let secondaryStarted = false;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const cancel = (which: 'primary' | 'secondary', reason: unknown): void => {
      if (!running[which]) return;
      running[which] = false;
      controllers[which].abort(reason);
      if (stats !== undefined) stats.cancelled++;
    };
    const settle = (finish: () => void): void => {
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = (): void => {
      if (settled) return;
      const reason: unknown = signal?.reason;
      cancel('primary', reason);
      cancel('secondary', reason);
      settle(() => reject(reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const run = (which: 'primary' | 'secondary'): void => {
      running[which] = true;
      const other = which === 'primary' ? 'secondary' : 'primary';
      let attempt: Promise<T>;
      try {
        attempt = (which === 'primary' ? primary : secondary)(controllers[which].signal);
      } catch (error) {
        attempt = Promise.reject(error);
      }
      attempt.then(
        (value) => {
          running[which] = false;
          if (settled) {
            dispose?.(value);
            return;
          }
          cancel(other, new DOMException('The other hedged attempt won.', 'AbortError'));
          if (which === 'secondary' && stats !== undefined) stats.secondaryWins++;
          settle(() => resolve({ value, winner: which, secondaryStarted }));
        },
        (error: unknown) => {
          const wasRunning = running[which];
          running[which] = false;
          // A cancelled loser's rejection is expected; the race is already decided.
          if (settled || !wasRunning) return;
          failed[which] = { error };
          if (which === 'primary') {
            if (!fallBackOn(error)) {
              cancel('secondary', error);
              settle(() => reject(error));
            } else if (!secondaryStarted) {
              startSecondary();
            } else if (failed.secondary !== undefined) {
              bothFailed(error);
            }
          } else if (failed.primary !== undefined) {
            bothFailed(failed.primary.error);
          }
        },
      );
    };
    const bothFailed = (primaryError: unknown): void => {
      if (stats !== undefined) stats.bothFailed++;
      settle(() => reject(primaryError));
    };
    const startSecondary = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      secondaryStarted = true;
      run('secondary');
    };

    run('primary');
    if (!settled && !secondaryStarted && Number.isFinite(options.delayMs)) {
      timer = setTimeout(
        () => {
          if (settled || secondaryStarted) return;
          if (stats !== undefined) stats.fired++;
          startSecondary();
        },
        Math.max(0, options.delayMs),
      );
    }
  });
}
