import OpenAI from 'openai';
import type { GateEvaluation } from '@svc/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const prompt = 'Write a Python function that reverses a linked list.';

/** Issue 28 part 5: the per-task learner's route change goes through the regression gate before it is applied. */
describe('a learned route change through the regression gate (openai SDK, mock provider)', () => {
  let gateway: Gateway;
  let orgId: string;
  let client: OpenAI;

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '0', SVC_GATE_MIN_JUDGED_PAIRS: '1100', SVC_GATE_MAX_JUDGED_DROP: '0.05' });
    const org = await adminCall<{ id: string }>(gateway.controlUrl, 'POST', '/v1/admin/orgs', { name: `learned-gate-${Date.now()}` });
    orgId = org.id;
    const key = await adminCall<{ key: string }>(gateway.controlUrl, 'POST', '/v1/admin/keys', { org_id: orgId, scopes: ['inference:chat'] });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key.key, maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  const served = async () => (await client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: prompt }] })).model;

  it('serves the old route while the gate refuses the change, the new one once it promotes it, and lists both rulings with their reasons', async () => {
    const router = gateway.runtime.requestFeedback.learner.router;
    const ask = { model: 'svc/auto', messages: [{ role: 'user' as const, content: prompt }], stream: false, n: 1, includeUsage: false };
    const first = router.route(ask, { orgId });
    const cheaper = first.candidates.filter((c) => c.costUsd < first.candidates[0]!.costUsd).at(-1)!.id;
    const incumbent = await served();
    expect(incumbent).toBe(first.model.id);
    const teach = (n: number) => {
      for (let i = 0; i < n; i++) router.recordJudgedPair({ orgId, taskKind: first.taskFamily, incumbent, candidate: cheaper, verdict: 'tie' });
    };
    // 1,000 tied pairs: the learner's always-valid bound, reading ties as ties, clears 0.45 (0.498; from
    // ~46 ties on), the gate (ties read as coin flips, Wilson) wants 1,100 pairs.
    teach(1000);
    // Four asks: each is the incumbent; a revisit (5% once proven) is not put to the gate, so the
    // refusal is logged on one to four of them (all four revisits: 6 in a million).
    for (let i = 0; i < 4; i++) expect(await served()).toBe(incumbent);
    teach(100);
    // Promoted: 5% of the kind's requests still go to the incumbent (revisits, unlogged as learned); one of three asks is the cheaper model.
    const promoted = async (tries: number): Promise<string> => {
      const model = await served();
      return model === cheaper || tries <= 1 ? model : promoted(tries - 1);
    };
    expect(await promoted(3)).toBe(cheaper);
    await gateway.runtime.learn.flush();
    const history = await adminCall<{ evaluations: GateEvaluation[] }>(gateway.controlUrl, 'GET', `/v1/admin/routing/gate?tenant_id=${orgId}&days=1`);
    const learned = history.evaluations[0]!.route_changes!.filter((c) => c.origin === 'learner');
    expect(learned).toEqual([
      expect.objectContaining({ task_kind: first.taskFamily, from: incumbent, to: cheaper, status: 'promoted', reason: 'judged_not_worse', limit: 0.45, decisions: 1, judged: expect.objectContaining({ samples: 1100, win_rate: 0.5 }) }),
      expect.objectContaining({ task_kind: first.taskFamily, from: incumbent, to: cheaper, status: 'refused', reason: 'insufficient_judged_pairs', decisions: expect.toSatisfy((n: number) => n >= 1 && n <= 4), judged: expect.objectContaining({ samples: 1000 }) }),
    ]);
  });
});
