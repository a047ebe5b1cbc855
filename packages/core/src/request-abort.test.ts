import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RequestAbort, nodeSignal } from './request-abort.js';

describe('RequestAbort', () => {
  it('aborts once, as an AbortController does: the event, onabort, the reason', () => {
    const abort = new RequestAbort();
    const heard: string[] = [];
    abort.signal.addEventListener('abort', () => heard.push('listener'));
    abort.signal.onabort = () => heard.push('onabort');
    expect(abort.signal.aborted).toBe(false);
    expect(() => abort.signal.throwIfAborted()).not.toThrow();
    abort.abort();
    abort.abort(new Error('later'));
    expect(abort.signal.aborted).toBe(true);
    expect(heard).toEqual(['listener', 'onabort']);
    expect(abort.signal.reason).toBeInstanceOf(DOMException);
    expect((abort.signal.reason as DOMException).name).toBe('AbortError');
    expect(() => abort.signal.throwIfAborted()).toThrow(abort.signal.reason as DOMException);
  });

  it('runs onabort in the order it was first set, once, also after being replaced', () => {
    const abort = new RequestAbort();
    const heard: string[] = [];
    abort.signal.onabort = () => heard.push('first handler');
    abort.signal.addEventListener('abort', () => heard.push('listener'));
    abort.signal.onabort = null;
    abort.signal.onabort = () => heard.push('second handler');
    abort.abort();
    expect(heard).toEqual(['second handler', 'listener']);
  });

  it('cannot be marked aborted from outside', () => {
    const { signal } = new RequestAbort();
    expect(() => Object.assign(signal, { aborted: true })).toThrow(TypeError);
    expect(signal.aborted).toBe(false);
  });

  it('keeps the reason it is given', () => {
    const abort = new RequestAbort();
    const reason = new DOMException('late', 'TimeoutError');
    abort.abort(reason);
    expect(abort.signal.reason).toBe(reason);
  });

  it("is taken by Node's own APIs that read a signal by its members", async () => {
    const abort = new RequestAbort();
    const slept = sleep(60_000, undefined, { signal: abort.signal });
    const waited = once(new EventTarget(), 'never', { signal: abort.signal });
    abort.abort();
    await expect(slept).rejects.toMatchObject({ name: 'AbortError' });
    await expect(waited).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('gives its signals one class: none is made by swapping a prototype (Node 20 AbortSignal)', () => {
    const [a, b] = [new RequestAbort().signal, new RequestAbort().signal];
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(Object.getPrototypeOf(a) === AbortSignal.prototype).toBe(false);
    expect(Object.keys(a)).toEqual(Object.keys(b));
  });
});

describe('nodeSignal', () => {
  it('is what AbortSignal.any (and undici\'s fetch) need, and follows the request', () => {
    const abort = new RequestAbort();
    const unfollowed = AbortSignal.any([abort.signal]);
    const node = nodeSignal(abort.signal);
    expect(node).toBeInstanceOf(AbortSignal);
    expect(nodeSignal(abort.signal)).toBe(node);
    const any = AbortSignal.any([node, new AbortController().signal]);
    const reason = new Error('gone');
    abort.abort(reason);
    expect([node.aborted, node.reason, any.aborted, any.reason]).toEqual([true, reason, true, reason]);
    // Why it is needed: AbortSignal.any takes the signal itself but never hears it abort.
    expect(unfollowed.aborted).toBe(false);
  });

  it('is an aborted Node signal with the reason once the request was aborted', () => {
    const abort = new RequestAbort();
    const reason = new Error('gone');
    abort.abort(reason);
    const node = nodeSignal(abort.signal);
    expect([node instanceof AbortSignal, node.aborted, node.reason]).toEqual([true, true, reason]);
    expect(nodeSignal(abort.signal)).toBe(node);
  });

  it('leaves a Node signal as it is', () => {
    const signal = new AbortController().signal;
    expect(nodeSignal(signal)).toBe(signal);
  });
});
