import { RequestAbort, isGatewayError } from '@svc/core';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createDeadline, overDeadline, requestTimeoutMs } from './deadline.js';

describe('requestTimeoutMs', () => {
  it("takes the caller's timeout when shorter, the server's when not, and the caller's when the server has none", () => {
    expect(requestTimeoutMs(600_000, undefined)).toBe(600_000);
    expect(requestTimeoutMs(600_000, 1_500)).toBe(1_500);
    expect(requestTimeoutMs(2_000, 60_000)).toBe(2_000);
    expect(requestTimeoutMs(0, 60_000)).toBe(60_000);
  });
});

describe('overDeadline', () => {
  it('turns a failure into 504 request_timeout only once the timer ended the request', async () => {
    const parent = new RequestAbort();
    const deadline = createDeadline(parent.signal, 20);
    const failure = new Error('upstream read aborted');
    expect(overDeadline(deadline, failure)).toBe(failure);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const mapped = overDeadline(deadline, failure);
    expect(isGatewayError(mapped) && { status: mapped.status, code: mapped.code }).toEqual({ status: 504, code: 'request_timeout' });
    // The client leaving is not a timeout: 499, whether the deadline follows the client's signal or owns it.
    const left = createDeadline(parent.signal, 10_000);
    parent.abort();
    const gone = overDeadline(left, failure);
    expect(isGatewayError(gone) && { status: gone.status, code: gone.code, cause: gone.cause }).toEqual({ status: 499, code: 'client_closed_request', cause: failure });
    left.clear();
    const own = new RequestAbort();
    const owned = createDeadline(own.signal, 10_000, own);
    own.abort();
    expect(overDeadline(owned, failure)).toMatchObject({ status: 499 });
    owned.release();
  });
});

describe('createDeadline', () => {
  it('keeps following the parent after clear (a stream outlives its first byte) and stops after release', () => {
    const parent = new RequestAbort();
    const cleared = createDeadline(parent.signal, 10_000);
    cleared.clear();
    const released = createDeadline(parent.signal, 10_000);
    released.release();
    parent.abort();
    expect(cleared.signal.aborted).toBe(true);
    expect(released.signal.aborted).toBe(false);
    expect(released.expired).toBe(false);
  });

  it('leaves no listener on a parent that outlives many released deadlines (fallbacks, MCP rounds)', () => {
    const parent = new RequestAbort();
    for (let round = 0; round < 50; round += 1) createDeadline(parent.signal, 10_000).release();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });
});

describe('createDeadline on the request’s own controller (Exchange.abort)', () => {
  it('makes no signal or listener of its own: its timer aborts the owner, and says it expired', async () => {
    const owner = new RequestAbort();
    const deadline = createDeadline(owner.signal, 20, owner);
    expect(deadline.signal).toBe(owner.signal);
    expect(getEventListeners(owner.signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(owner.signal.aborted).toBe(true);
    expect((owner.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.expired).toBe(true);
  });

  it('is the client leaving, not a timeout, when the owner aborts first; released, it never aborts', async () => {
    const owner = new RequestAbort();
    const left = createDeadline(owner.signal, 10_000, owner);
    owner.abort();
    expect(left.signal.aborted).toBe(true);
    expect(left.expired).toBe(false);
    left.release();
    const spared = new RequestAbort();
    createDeadline(spared.signal, 10, spared).release();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(spared.signal.aborted).toBe(false);
  });

  it('follows the signal with a controller of its own when the owner is not the signal’s', () => {
    const parent = new RequestAbort();
    const deadline = createDeadline(parent.signal, 10_000, new RequestAbort());
    expect(deadline.signal).not.toBe(parent.signal);
    parent.abort();
    expect(deadline.signal.aborted).toBe(true);
    deadline.release();
  });
});
