import { describe, expect, it } from 'vitest';
import { eitherSignal } from './either-signal.js';
import { RequestAbort } from './request-abort.js';

describe('eitherSignal', () => {
  it('aborts with the first of the two, with its reason, as a Node signal', () => {
    const timeout = new AbortController();
    const request = new RequestAbort();
    const either = eitherSignal(timeout.signal, request.signal);
    expect(either.signal).toBeInstanceOf(AbortSignal);
    request.abort(new Error('client left'));
    expect(either.signal.aborted).toBe(true);
    expect((either.signal.reason as Error).message).toBe('client left');
    timeout.abort(new DOMException('late', 'TimeoutError'));
    expect((either.signal.reason as Error).message).toBe('client left');
  });

  it('is aborted at once when a source already is', () => {
    const timeout = AbortSignal.abort(new DOMException('spent', 'TimeoutError'));
    expect(eitherSignal(timeout, new RequestAbort().signal).signal.reason).toBe(timeout.reason);
  });

  it('leaves no listener on a long-lived request signal once released', () => {
    const worker = new AbortController();
    let listeners = 0;
    const add = worker.signal.addEventListener.bind(worker.signal);
    const remove = worker.signal.removeEventListener.bind(worker.signal);
    worker.signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    };
    worker.signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    };
    for (let call = 0; call < 1_000; call++) eitherSignal(new AbortController().signal, worker.signal).release();
    expect(listeners).toBe(0);
  });
});
