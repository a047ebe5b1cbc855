/** One line of a batch's output file, as far as the check reads it. */
export interface OutputLine {
  custom_id: string;
  response: { status_code: number; request_id: string | null } | null;
}

/** One exported ledger row (`GET /v1/admin/ledger/export`), as far as the check reads it. */
export interface LedgerLine {
  request_id: string;
  cost_usd: number;
}

/** Whether every line was answered exactly once and billed exactly once, and what broke it. */
export interface BatchCheck {
  lines: number;
  answered: number;
  /** Custom ids absent from the output, or present more than once. */
  unanswered: string[];
  duplicated: string[];
  /** Lines answered with a status other than 200. */
  failed: number;
  ledgerRows: number;
  /** Output lines whose request id has no ledger row; ledger rows of no output line. */
  unbilled: string[];
  strayRows: string[];
  costUsd: number;
  ok: boolean;
}

const first = (values: Iterable<string>, n = 5) => [...values].slice(0, n);

/**
 * Checks a batch's output against the custom ids submitted (`line-0` .. `line-<n-1>`) and against
 * the ledger rows tagged with its id: each line once in the output, each answer's request id once
 * in the ledger, nothing else in the ledger. Lists at most five offenders of each kind.
 */
export function checkBatch(lines: number, output: readonly OutputLine[], ledger: readonly LedgerLine[]): BatchCheck {
  const seen = new Map<string, number>();
  for (const line of output) seen.set(line.custom_id, (seen.get(line.custom_id) ?? 0) + 1);
  const expected = Array.from({ length: lines }, (_, i) => `line-${i}`);
  const unanswered = expected.filter((id) => !seen.has(id));
  const duplicated = [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  const billed = new Set(ledger.map((row) => row.request_id));
  const answeredIds = new Set(output.map((line) => line.response?.request_id ?? ''));
  const unbilled = output.filter((line) => !billed.has(line.response?.request_id ?? '')).map((line) => line.custom_id);
  const strayRows = ledger.filter((row) => !answeredIds.has(row.request_id)).map((row) => row.request_id);
  const ok = unanswered.length === 0 && duplicated.length === 0 && output.length === lines && ledger.length === billed.size && billed.size === lines && unbilled.length === 0 && strayRows.length === 0;
  return {
    lines,
    answered: output.length,
    unanswered: first(unanswered),
    duplicated: first(duplicated),
    failed: output.filter((line) => line.response?.status_code !== 200).length,
    ledgerRows: ledger.length,
    unbilled: first(unbilled),
    strayRows: first(strayRows),
    costUsd: ledger.reduce((sum, row) => sum + row.cost_usd, 0),
    ok,
  };
}
