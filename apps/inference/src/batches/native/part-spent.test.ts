import { describe, expect, it } from 'vitest';
import { answeredSpend } from './part-spent.js';

const line = (body: object) => ({ result: { id: 'batch_req_1', custom_id: 'a', response: { status_code: 200, request_id: 'r', body }, error: null } });

describe('answeredSpend', () => {
  it('reads the cost and tokens a recorded chat or Messages answer was billed', () => {
    expect(answeredSpend(line({ usage: { total_tokens: 30 }, svc_metadata: { cost_usd: 0.002 } }), false)).toEqual({ tokens: 30, costUsd: 0.002 });
    expect(answeredSpend(line({ usage: { input_tokens: 10, output_tokens: 5 }, svc_metadata: { cost_usd: 0.001 } }), false)).toEqual({ tokens: 15, costUsd: 0.001 });
  });

  it('counts nothing for a refusal, and no cost for a line served with the organisation’s own key', () => {
    expect(answeredSpend(line({ error: { type: 'invalid_request_error' } }), false)).toEqual({ tokens: 0, costUsd: 0 });
    expect(answeredSpend(line({ usage: { total_tokens: 30 }, svc_metadata: { cost_usd: 0.002 } }), true)).toEqual({ tokens: 30, costUsd: 0 });
    expect(answeredSpend({ result: { response: 'not an object' } }, false)).toEqual({ tokens: 0, costUsd: 0 });
  });
});
