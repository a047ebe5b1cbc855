import type { Verdict } from './verdict.js';

/** One judged pair: the served (incumbent) model's answer against a candidate's, as the judge ruled. */
export interface JudgedPair {
  orgId: string;
  requestId: string;
  /** The task family the router classified the request as; `unknown` when it did not. */
  taskKind: string;
  incumbent: string;
  candidate: string;
  judge: string;
  verdict: Verdict;
  candidateCostUsd: number;
  judgeCostUsd: number;
  createdAt: Date;
}

/**
 * Where verdicts go: the default writes the `shadow_verdicts` table; the router's learner takes
 * the same pairs (`recordJudgedPair`). A sink that throws loses that verdict only.
 */
export interface JudgedPairSink {
  record(pair: JudgedPair): void | Promise<void>;
}

/** Every sink in turn, each one's failure its own. */
export function fanOutSinks(sinks: readonly JudgedPairSink[], onError: (error: unknown) => void): JudgedPairSink {
  return {
    async record(pair) {
      for (const sink of sinks) {
        try {
          await sink.record(pair);
        } catch (error) {
          onError(error);
        }
      }
    },
  };
}

/** The `shadow_verdicts` row writer the default sink needs (`@svc/db`'s `shadowVerdicts.insert`). */
export interface VerdictTable {
  insert(row: {
    orgId: string;
    requestId: string;
    taskKind: string;
    incumbentModel: string;
    candidateModel: string;
    judgeModel: string;
    verdict: string;
    candidateCostUsd: number;
    judgeCostUsd: number;
    createdAt: Date;
  }): Promise<void>;
}

/** The default sink: each verdict a row of `shadow_verdicts`. */
export function verdictTableSink(table: VerdictTable): JudgedPairSink {
  return {
    record: (pair) =>
      table.insert({
        orgId: pair.orgId,
        requestId: pair.requestId,
        taskKind: pair.taskKind,
        incumbentModel: pair.incumbent,
        candidateModel: pair.candidate,
        judgeModel: pair.judge,
        verdict: pair.verdict,
        candidateCostUsd: pair.candidateCostUsd,
        judgeCostUsd: pair.judgeCostUsd,
        createdAt: pair.createdAt,
      }),
  };
}
