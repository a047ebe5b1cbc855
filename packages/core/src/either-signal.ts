/** A Node AbortSignal that follows two others, and stops following them on `release()`. */
export interface EitherSignal {
  /** Aborts with the first of the two to abort, and its reason (Node's class: undici's fetch and `events` take it). */
  signal: AbortSignal;
  /** The work is over: no listener stays on either signal. */
  release(): void;
}

/**
 * Aborts when `timeout` or `request` does, whichever first. `AbortSignal.any` would do the same,
 * but on Node 20 it keeps an entry on each source for as long as the source lives: on a signal that
 * outlives many calls (a batch worker's, which its lines' exchanges carry) that is one entry a call,
 * never freed. Here the listeners are removed when the call ends.
 */
export function eitherSignal(timeout: AbortSignal, request: AbortSignal): EitherSignal {
  const both = new AbortController();
  const abort = (): void => {
    release();
    both.abort(request.aborted ? request.reason : timeout.reason);
  };
  const release = (): void => {
    timeout.removeEventListener('abort', abort);
    request.removeEventListener('abort', abort);
  };
  if (timeout.aborted || request.aborted) abort();
  else {
    timeout.addEventListener('abort', abort);
    request.addEventListener('abort', abort);
  }
  return { signal: both.signal, release };
}
