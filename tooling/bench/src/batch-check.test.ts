import { describe, expect, it } from 'vitest';
import { checkBatch } from './batch-check.js';

const answered = (i: number, requestId = `req_${i}`) => ({ custom_id: `line-${i}`, response: { status_code: 200, request_id: requestId } });
const row = (requestId: string) => ({ request_id: requestId, cost_usd: 0.5 });

describe('checkBatch', () => {
  it('passes a batch whose every line is answered and billed once', () => {
    const check = checkBatch(2, [answered(0), answered(1)], [row('req_0'), row('req_1')]);
    expect(check).toMatchObject({ ok: true, answered: 2, ledgerRows: 2, costUsd: 1, failed: 0 });
  });

  it('names a line missing, answered twice, unbilled, or a row of no answer', () => {
    expect(checkBatch(2, [answered(0)], [row('req_0')])).toMatchObject({ ok: false, unanswered: ['line-1'] });
    expect(checkBatch(1, [answered(0), answered(0, 'req_x')], [row('req_0'), row('req_x')])).toMatchObject({ ok: false, duplicated: ['line-0'] });
    expect(checkBatch(2, [answered(0), answered(1)], [row('req_0')])).toMatchObject({ ok: false, unbilled: ['line-1'] });
    expect(checkBatch(1, [answered(0)], [row('req_0'), row('req_retry')])).toMatchObject({ ok: false, strayRows: ['req_retry'] });
  });
});
