import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest, masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type Settings = { enabled: boolean; sample_rate: number; candidate_models?: string[] | null; judge_model: string; daily_budget_usd: number; judge_error_rate?: number | null; cautious_start?: boolean };

const INCUMBENT = 'The incumbent answer.';
const CANDIDATE = 'The candidate answer, which is better.';
const on: Settings = { enabled: true, sample_rate: 1, candidate_models: ['openai/gpt-4o-mini'], judge_model: 'openai/gpt-4.1', daily_budget_usd: 1 };

/** Issue 28 part 3: shadow judging through the running gateway, the mock upstream answering the candidate and the judge. */
describe('shadow judging (mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;

  const admin = (method: string, path: string, body?: unknown) => adminRequest(gateway.controlUrl, method, path, body);
  /** An organisation with shadow judging set, and a chat call with its key. */
  const orgWith = async (name: string, settings: Settings, orgFields: Record<string, unknown> = {}) => {
    const org = await admin('POST', '/v1/admin/orgs', { name: `${name}-${Date.now()}`, ...orgFields });
    const orgId = org.body.id as string;
    expect((await admin('PUT', `/v1/admin/orgs/${orgId}/shadow-judging`, settings)).status).toBe(200);
    const key = await admin('POST', '/v1/admin/keys', { org_id: orgId, scopes: ['inference:chat'] });
    const ask = async (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
      const response = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.body.key as string}`, 'content-type': 'application/json', 'x-intelligence-mode': 'cache', ...headers },
        body: JSON.stringify({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'Explain what a hash map is.' }], ...body }),
      });
      const answer = (await response.json()) as { choices: { message: { content: string } }[]; svc_metadata: { cost_usd: number } };
      return { status: response.status, requestId: response.headers.get('x-svc-request-id')!, answer, receivedAt: Date.now() };
    };
    /** The same request streamed: the answer's text from the SSE deltas, and when the stream ended. */
    const askStreamed = async () => {
      const response = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.body.key as string}`, 'content-type': 'application/json', 'x-intelligence-mode': 'cache' },
        body: JSON.stringify({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'Explain what a hash map is.' }], stream: true }),
      });
      const body = await response.text();
      const deltas = body
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '');
      return { status: response.status, requestId: response.headers.get('x-svc-request-id')!, text: deltas.join('') };
    };
    return { orgId, ask, askStreamed };
  };
  const settle = async () => {
    await gateway.runtime.shadow.idle();
    await gateway.runtime.learn.flush();
  };
  const ledger = async (orgId: string) => gateway.runtime.db.usage.listByOrg(orgId, { limit: 1000 });
  const shadowRows = async (orgId: string) => (await ledger(orgId)).filter((row) => /:(shadow|judge:\d)$/.test(row.requestId));

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6, latencyMs: 150, answers: { 'gpt-4o': INCUMBENT, 'gpt-4o-mini': CANDIDATE }, judgePrefers: 'better' });
    // A hung shadow call gives up after 3 s.
    gateway = await startGateway({ ...upstreamProviders(upstream.url), SVC_REQUEST_TIMEOUT_MS: '3000' });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('the settings API is strict and names what it refuses', async () => {
    const org = await admin('POST', '/v1/admin/orgs', { name: `shadow-settings-${Date.now()}` });
    const path = `/v1/admin/orgs/${org.body.id as string}/shadow-judging`;
    expect((await admin('GET', path)).body).toMatchObject({ object: 'shadow_judging', enabled: false, judge_model: null });
    expect((await admin('PUT', path, { ...on, sample_rat: 1 })).body.error).toMatchObject({ code: 'validation_error', param: 'sample_rat' });
    expect((await admin('PUT', path, { ...on, sample_rate: 1.5 })).body.error).toMatchObject({ param: 'sample_rate' });
    expect((await admin('PUT', path, { ...on, judge_model: 'acme/nothing' })).body.error).toMatchObject({ param: 'judge_model' });
    expect((await admin('PUT', path, { ...on, candidate_models: ['gpt-4o-mini', 'nope/x'] })).body.error).toMatchObject({ param: 'candidate_models[1]' });
    for (const [rate, message] of [[0.5, 'must be at most 0.45'], [-0.1, 'must be at least 0'], ['0.1', 'must be a number']] as const) {
      const refused = await admin('PUT', path, { ...on, judge_error_rate: rate });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'validation_error', param: 'judge_error_rate', message: expect.stringContaining(message) });
    }
    const put = await admin('PUT', path, { ...on, candidate_models: ['gpt-4o-mini'] });
    // No rate set, no judged pair with feedback yet: the documented default.
    expect(put.body).toMatchObject({ enabled: true, sample_rate: 1, candidate_models: ['openai/gpt-4o-mini'], judge_model: 'openai/gpt-4.1', daily_budget_usd: 1, judge_error_rate: null, judge_error: { rate: 0.15, source: 'default', pairs: 0 } });
    expect((await admin('GET', path)).body).toEqual(put.body);
    const set = await admin('PUT', path, { ...on, judge_error_rate: 0.05 });
    expect(set.body).toMatchObject({ judge_error_rate: 0.05, judge_error: { rate: 0.05, source: 'setting', pairs: 0 } });
    expect((await admin('GET', path)).body).toEqual(set.body);
    expect((await admin('PUT', path, { ...on, judge_error_rate: null })).body).toMatchObject({ judge_error_rate: null, judge_error: { source: 'default' } });
  });

  it('cautious_start round-trips (absent: true) and anything but a boolean is refused naming it', async () => {
    const org = await admin('POST', '/v1/admin/orgs', { name: `shadow-start-${Date.now()}` });
    const path = `/v1/admin/orgs/${org.body.id as string}/shadow-judging`;
    expect((await admin('GET', path)).body).toMatchObject({ enabled: false, cautious_start: true }); // never set: on
    expect((await admin('PUT', path, on)).body).toMatchObject({ enabled: true, cautious_start: true });
    const off = await admin('PUT', path, { ...on, cautious_start: false });
    expect(off.body).toMatchObject({ cautious_start: false });
    expect((await admin('GET', path)).body).toEqual(off.body);
    for (const value of ['false', 0, null, {}]) {
      const refused = await admin('PUT', path, { ...on, cautious_start: value });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'validation_error', param: 'cautious_start', message: expect.stringContaining('must be true or false') });
    }
    expect((await admin('GET', path)).body).toMatchObject({ cautious_start: false }); // a refused PUT changes nothing
    expect((await admin('PUT', path, { ...on, cautious_start: true })).body).toMatchObject({ cautious_start: true });
  });

  it("routes an organisation with cautious_start false to the router's cheap choice where one with it on gets the cautious start", async () => {
    const router = gateway.runtime.requestFeedback.learner.router;
    // No dial: tolerance 0.05. Two models of which the router puts the cheaper first.
    const request = { model: 'svc/auto', messages: [{ role: 'user' as const, content: 'Summarise the plot of a short story about a lighthouse keeper.' }], stream: false, n: 1, includeUsage: false };
    const all = router.route(request, {}).candidates;
    const pairs = all.flatMap((a) => all.map((b) => [a, b] as const)).filter(([a, b]) => a.costUsd < b.costUsd);
    const [cheap, dear] = pairs.find(([a, b]) => router.route(request, { candidates: [a.id, b.id] }).model.id === a.id)!;
    const context = { candidates: [cheap.id, dear.id] };
    const first = router.route(request, context);
    expect(first.model.id).toBe(cheap.id);
    /** An organisation with `settings`, one pair of the pricier model against the cheap choice judged (a tie), and the route the router then takes. */
    const routedFor = async (settings: Settings) => {
      const { orgId } = await orgWith('shadow-cautious-start', settings);
      gateway.runtime.requestFeedback.learner.recordJudgedPair({ orgId, taskKind: first.taskFamily, incumbent: cheap.id, candidate: dear.id, verdict: 'tie' });
      await gateway.runtime.shadowSettings.get(orgId); // the settings the learner reads, loaded
      const routed = router.route(request, { ...context, orgId });
      return { model: routed.model.id, reason: routed.learned?.reason };
    };
    expect(await routedFor({ ...on, sample_rate: 0 })).toEqual({ model: dear.id, reason: 'start' }); // absent: on
    expect(await routedFor({ ...on, sample_rate: 0, cautious_start: true })).toEqual({ model: dear.id, reason: 'start' });
    expect(await routedFor({ ...on, sample_rate: 0, cautious_start: false })).toEqual({ model: cheap.id, reason: undefined });
  });

  it("the router's learner holds each organisation's tolerance against its judge error rate", async () => {
    const router = gateway.runtime.requestFeedback.learner.router;
    // Quality first (dial 1); the learner's tolerance is set apart (0.05). Two models of which the router puts the dearer first.
    const request = { model: 'svc/auto', messages: [{ role: 'user' as const, content: 'Prove that there are infinitely many primes, step by step.' }], routingHints: { preferenceDial: 1 }, stream: false, n: 1, includeUsage: false };
    const pairs = router.route(request, {}).candidates.flatMap((a) => router.route(request, {}).candidates.map((b) => [a, b] as const)).filter(([a, b]) => a.costUsd > b.costUsd);
    const [dear, cheaper] = pairs.find(([a, b]) => router.route(request, { candidates: [a.id, b.id] }).model.id === a.id)!;
    const context = { candidates: [dear.id, cheaper.id], tolerance: 0.05 };
    const first = router.route(request, context);
    // The same 12,000 pairs for three organisations: a judged win rate of 0.47 (always-valid lower
    // bound 0.457) clears 0.45 when the judge is trusted; a judge wrong on 15% makes the bar 0.465.
    const learnedFor = async (judgeErrorRate: number | null) => {
      const { orgId } = await orgWith('shadow-judge-error', { ...on, sample_rate: 0, judge_error_rate: judgeErrorRate });
      const pair = { orgId, taskKind: first.taskFamily, incumbent: first.model.id, candidate: cheaper.id };
      const verdicts = [...Array<'candidate'>(3240).fill('candidate'), ...Array<'incumbent'>(3960).fill('incumbent'), ...Array<'tie'>(4800).fill('tie')];
      for (const verdict of verdicts) gateway.runtime.requestFeedback.learner.recordJudgedPair({ ...pair, verdict });
      await gateway.runtime.shadowSettings.get(orgId); // the settings the learner reads, loaded
      // Three routes: a promoted kind still sends 5% of its requests to the incumbent (revisits).
      const served = [0, 1, 2].map(() => router.route(request, { ...context, orgId }).model.id);
      return served.includes(cheaper.id) ? cheaper.id : served[0];
    };
    expect(await learnedFor(0)).toBe(cheaper.id);
    expect(await learnedFor(0.15)).toBe(first.model.id);
    expect(await learnedFor(null)).toBe(first.model.id); // the default, 0.15
  });

  it('a sampled request gets its answer unchanged; the candidate and judge calls come after it, are judged in both orders, stored and billed as their own category', async () => {
    const { orgId, ask } = await orgWith('shadow-judged', on);
    const started = Date.now();
    const served = await ask();
    expect(served.status).toBe(200);
    expect(served.answer.choices[0]!.message.content).toBe(INCUMBENT);
    await settle();
    const verdicts = await gateway.runtime.db.shadowVerdicts.judged({ since: new Date(started), orgId });
    // The judge preferred the candidate's answer in both orders: a win, not a tie.
    expect(verdicts).toEqual([expect.objectContaining({ model: 'openai/gpt-4o-mini', samples: 1, wins: 1, losses: 0, ties: 0 })]);
    // The router's per-task learner was taught the same pair.
    const taught = gateway.runtime.requestFeedback.learner.router.learner!.serialize().pairs.filter((row) => row[0] === orgId);
    expect(taught).toEqual([expect.arrayContaining([orgId, 'openai/gpt-4o-mini'])]);
    const rows = await shadowRows(orgId);
    expect(rows.map((row) => [row.requestId, row.model]).sort()).toEqual([
      [`${served.requestId}:judge:1`, 'openai/gpt-4.1'],
      [`${served.requestId}:judge:2`, 'openai/gpt-4.1'],
      [`${served.requestId}:shadow`, 'openai/gpt-4o-mini'],
    ]);
    for (const row of rows) expect(row.costUsd).toBeGreaterThan(0);
    // The request's own row and its svc_metadata are the served call's alone.
    const own = (await ledger(orgId)).find((row) => row.requestId === served.requestId)!;
    expect(own.costUsd).toBeCloseTo(served.answer.svc_metadata.cost_usd, 12);
    // The benchmarks report carries the judged win rate with its interval.
    const report = await fetch(`${gateway.controlUrl}/v1/observability/benchmarks?org_id=${orgId}&days=1`, { headers: { authorization: `Bearer ${masterKey}` } });
    const judged = ((await report.json()) as { judged: Record<string, unknown>[] }).judged;
    expect(judged).toEqual([expect.objectContaining({ model: 'openai/gpt-4o-mini', samples: 1, wins: 1, win_rate: 1, interval: { low: expect.any(Number), high: expect.closeTo(1, 9) } })]);
  });

  it('the answer never waits for the shadow calls: a candidate that never answers does not hold it', async () => {
    // The Anthropic key's calls hang until the gateway's request timeout; the served model is OpenAI's.
    upstream.configure({ faultKeys: { 'sk-upstream-anthropic': 'timeout' } });
    try {
      const { orgId, ask } = await orgWith('shadow-hung', { ...on, candidate_models: ['anthropic/claude-sonnet-5'] });
      const done = gateway.runtime.shadow.stats().done;
      const served = await ask();
      expect(served.status).toBe(200);
      expect(served.answer.choices[0]!.message.content).toBe(INCUMBENT);
      // Answered while the judging job still waits on the hung candidate.
      expect(gateway.runtime.shadow.stats().done).toBe(done);
      await settle();
      expect(gateway.runtime.shadow.stats().done).toBe(done + 1);
      // The candidate's call timed out after the answer was delivered: no verdict, nothing billed for it.
      expect(await shadowRows(orgId)).toEqual([]);
      expect(await gateway.runtime.db.shadowVerdicts.judged({ since: new Date(0), orgId })).toEqual([]);
    } finally {
      upstream.configure({ faultKeys: undefined });
    }
  });

  it('a streamed answer is judged on its text after it was delivered whole, and the stream never waits for the shadow calls', async () => {
    const { orgId, askStreamed } = await orgWith('shadow-streamed', on);
    const started = Date.now();
    const streamed = await askStreamed();
    expect(streamed.status).toBe(200);
    expect(streamed.text).toBe(INCUMBENT);
    await settle();
    const verdicts = await gateway.runtime.db.shadowVerdicts.judged({ since: new Date(started), orgId });
    expect(verdicts).toEqual([expect.objectContaining({ model: 'openai/gpt-4o-mini', samples: 1, wins: 1 })]);
    expect((await shadowRows(orgId)).map((row) => row.requestId).sort()).toEqual([`${streamed.requestId}:judge:1`, `${streamed.requestId}:judge:2`, `${streamed.requestId}:shadow`]);
    upstream.configure({ faultKeys: { 'sk-upstream-anthropic': 'timeout' } });
    try {
      const hung = await orgWith('shadow-streamed-hung', { ...on, candidate_models: ['anthropic/claude-sonnet-5'] });
      const done = gateway.runtime.shadow.stats().done;
      const again = await hung.askStreamed();
      expect(again.text).toBe(INCUMBENT);
      // The stream ended while the judging job still waits on the hung candidate.
      expect(gateway.runtime.shadow.stats().done).toBe(done);
      await settle();
      expect(gateway.runtime.shadow.stats().done).toBe(done + 1);
    } finally {
      upstream.configure({ faultKeys: undefined });
    }
  });

  it('a position-biased judge (always "A") yields a tie, never a win', async () => {
    upstream.configure({ judgePrefers: undefined });
    try {
      const { orgId, ask } = await orgWith('shadow-biased', on);
      await ask();
      await settle();
      expect(await gateway.runtime.db.shadowVerdicts.judged({ since: new Date(0), orgId })).toEqual([expect.objectContaining({ samples: 1, wins: 0, losses: 0, ties: 1 })]);
    } finally {
      upstream.configure({ judgePrefers: 'better' });
    }
  });

  it('the day budget stops further shadow and judge calls, and the shadow spend stays within it', async () => {
    // One pair's reservation (the candidate and two judge calls at their most) is ~0.0023 USD: one fits, two do not.
    const budget = 0.0035;
    const { orgId, ask } = await orgWith('shadow-budget', { ...on, daily_budget_usd: budget });
    const before = gateway.runtime.shadow.stats().overBudget;
    for (let i = 0; i < 4; i++) expect((await ask()).status).toBe(200);
    await settle();
    const verdicts = await gateway.runtime.db.shadowVerdicts.judged({ since: new Date(0), orgId });
    expect(verdicts[0]?.samples).toBe(1);
    expect(gateway.runtime.shadow.stats().overBudget).toBeGreaterThan(before);
    const spent = (await shadowRows(orgId)).reduce((sum, row) => sum + row.costUsd, 0);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(budget);
  });

  it('requests that must not be kept or re-sent are never shadowed: store false, Cache-Control no-store, proxy mode, memory off', async () => {
    const { orgId, ask } = await orgWith('shadow-no-store', on);
    const calls = upstream.stats().total;
    await ask({ store: false });
    await ask({}, { 'cache-control': 'no-store' });
    await ask({}, { 'x-intelligence-mode': 'proxy' });
    await ask({ svc: { enable_memory: false } });
    await settle();
    expect(upstream.stats().total - calls).toBe(4);
    expect(await shadowRows(orgId)).toEqual([]);
    expect(await gateway.runtime.db.shadowVerdicts.judged({ since: new Date(0), orgId })).toEqual([]);
  });

  it("never uses a model the organisation may not use: a denied candidate or judge is skipped without a call", async () => {
    const denied = await orgWith('shadow-denied', on, { model_access: { deny: ['openai/gpt-4o-mini'] } });
    const calls = upstream.stats().total;
    await denied.ask();
    const judgeDenied = await orgWith('shadow-judge-denied', on, { model_access: { deny: ['gpt-4.1'] } });
    await judgeDenied.ask();
    await settle();
    expect(upstream.stats().total - calls).toBe(2);
    expect(await shadowRows(denied.orgId)).toEqual([]);
    expect(await shadowRows(judgeDenied.orgId)).toEqual([]);
    expect(gateway.runtime.shadow.stats().skipped).toMatchObject({ no_candidate: expect.any(Number), judge_not_permitted: expect.any(Number) });
  });

  it("exports what judging did on /metrics: the pairs judged and the answers skipped, by reason", async () => {
    const text = await (await fetch(`${gateway.inferenceUrl}/metrics`)).text();
    const stats = gateway.runtime.shadow.stats();
    expect(stats.judged).toBeGreaterThan(0);
    expect(text).toContain(`svc_shadow_judged_total ${stats.judged}`);
    expect(text).toContain(`svc_shadow_skipped_total{reason="judge_not_permitted"} ${stats.skipped['judge_not_permitted']}`);
    // The focused sampler's takes, open and settled choices (the learner is on by default).
    expect(stats.sampledOpen + stats.sampledSettled).toBeGreaterThan(0);
    expect(text).toContain(`svc_shadow_sampled_total{choice="open"} ${stats.sampledOpen}`);
    expect(text).toContain(`svc_shadow_sampled_total{choice="settled"} ${stats.sampledSettled}`);
  });
});
