import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from '../harness.js';
import { FAMILIES, type Family, errorShapeProblem, readAnswer, requestOf, wholeText } from './families.js';
import { BROKEN_FAULTS, type FaultUpstream, UPSTREAM_FAULTS, type UpstreamFault, startFaultUpstream } from './fault-upstream.js';
import { scaled } from './scale.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** `status x count, max ms` per family: the figures docs/operations.md quotes. */
function summary(runs: readonly Outcome[]): string {
  return FAMILIES.map((family) => {
    const mine = runs.filter((run) => run.family === family);
    const statuses = [...new Set(mine.map((run) => run.status))].join('/');
    return `${family} ${statuses} ${Math.round(Math.max(...mine.map((run) => run.ms)))}ms`;
  }).join('; ');
}

interface Outcome {
  family: Family;
  status: number;
  requestId: string | null;
  ms: number;
  problems: string[];
}

const FIRST_BYTE_MS = 1_000;
const REQUEST_MS = 4_000;
/** The client gives up here: well past every deadline the gateway should keep. */
const GIVE_UP_MS = 7_000;

/**
 * Known gaps, `<fault> <family>`: the embeddings stage (like every unit stage of
 * `packages/pipeline/src/units/unit-stage.ts`) has neither a first-byte bound nor the request
 * deadline, so a hung upstream holds the request until the client leaves. Reported to the lead;
 * the test fails when a gap listed here no longer shows, so the entry is removed with the fix.
 */
const KNOWN_GAPS: ReadonlySet<string> = new Set<string>([]);
const gapOf = (problem: string) => [...KNOWN_GAPS].find((gap) => problem.startsWith(`${gap}:`));

/**
 * Every upstream fault on every endpoint family (issue 20): an upstream that resets, fails,
 * rate limits, hangs before or after its headers, cuts or garbles its body, or drips it.
 * Whatever it does: no 5xx outside the spec's error shape, no answer that looks whole when the
 * upstream's was not, every answered request in the ledger once, and no wait past the deadlines.
 */
describe('upstream faults x endpoint families', () => {
  let upstream: FaultUpstream;
  let gateway: Gateway;
  const outcomes = new Map<UpstreamFault, Outcome[]>();

  beforeAll(async () => {
    upstream = await startFaultUpstream();
    gateway = await startGateway({
      SVC_CACHE_TTL_SECS: '0',
      OPENAI_API_KEY: 'sk-fault-suite-upstream-key',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      SVC_FIRST_BYTE_TIMEOUT_MS: String(FIRST_BYTE_MS),
      SVC_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      // Breakers would turn later faults into 503s: they have their own suite.
      SVC_BREAKER_CONSECUTIVE_FAILURES: '100000',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  async function send(family: Family, fault: UpstreamFault): Promise<Outcome> {
    const { path, body } = requestOf(family);
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${gateway.inferenceUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(GIVE_UP_MS),
      });
      text = await response.text();
    } catch (error) {
      const ms = performance.now() - started;
      return { family, status: 0, requestId: null, ms, problems: [`${fault} ${family}: no whole answer after ${Math.round(ms)} ms (${String(error)})`] };
    }
    const outcome: Outcome = { family, status: response.status, requestId: response.headers.get('x-svc-request-id'), ms: performance.now() - started, problems: [] };
    const problem = (what: string) => outcome.problems.push(`${fault} ${family} ${response.status}: ${what}`);
    if (response.status >= 400) {
      const shape = errorShapeProblem(family, response.headers, text);
      if (shape) problem(shape);
      if (fault === 'ok' || fault === 'slow-drip') problem('failed although the upstream answered whole');
      return outcome;
    }
    const reading = readAnswer(family, text);
    if (reading.complete && reading.text !== wholeText(family)) problem(`looks whole but holds ${JSON.stringify(reading.text)}`);
    if (BROKEN_FAULTS.has(fault) && reading.complete) problem('looks whole although the upstream broke');
    if (!reading.complete && !reading.errorEvent) problem(`neither whole nor an error: ${text.slice(-300)}`);
    if ((fault === 'ok' || fault === 'slow-drip') && !reading.complete) problem('not whole although the upstream answered whole');
    return outcome;
  }

  for (const fault of UPSTREAM_FAULTS) {
    it(`${fault}: the spec's errors or whole answers, never a truncated one, within the deadlines`, async () => {
      await gateway.runtime.breakers.reset();
      upstream.reset(fault);
      const runs = await Promise.all(FAMILIES.flatMap((family) => Array.from({ length: scaled(1) }, () => send(family, fault))));
      outcomes.set(fault, runs);
      const problems = runs.flatMap((run) => run.problems);
      expect(problems.filter((problem) => !gapOf(problem))).toEqual([]);
      const gaps = [...KNOWN_GAPS].filter((gap) => gap.startsWith(`${fault} `));
      expect(gaps.filter((gap) => !problems.some((problem) => gapOf(problem) === gap)), 'fixed: remove from KNOWN_GAPS').toEqual([]);
      // No request waits past the request deadline (plus the answer's own time).
      expect(Math.max(...runs.filter((run) => run.status !== 0).map((run) => run.ms))).toBeLessThan(REQUEST_MS + 3_000);
      if (process.env.SVC_FAULTS_REPORT) console.info(fault, summary(runs));
      if (fault !== 'ok') expect(upstream.calls.length).toBeGreaterThan(0);
    }, 30_000);
  }

  it('records every answered request in the ledger exactly once, and no failed one twice', async () => {
    await gateway.runtime.learn.flush();
    const org = await gateway.runtime.db.orgs.getByName('default');
    const rows = await gateway.runtime.db.usage.listByOrg(org!.id, { limit: 10_000 });
    const count = new Map<string, number>();
    for (const row of rows) count.set(row.requestId, (count.get(row.requestId) ?? 0) + 1);
    const problems: string[] = [];
    for (const [fault, runs] of outcomes) {
      for (const run of runs) {
        const seen = run.requestId === null ? 0 : (count.get(run.requestId) ?? 0);
        if (run.status === 200 && seen !== 1) problems.push(`${fault} ${run.family}: answered 200, ${seen} ledger rows`);
        if (run.status !== 200 && seen > 1) problems.push(`${fault} ${run.family}: ${run.status}, ${seen} ledger rows`);
      }
    }
    expect(outcomes.size).toBe(UPSTREAM_FAULTS.length);
    expect(problems).toEqual([]);
  });
});
