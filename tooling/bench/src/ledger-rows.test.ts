import { describe, expect, it } from 'vitest';
import { LEDGER_DAYS, REPORT_DAYS, seedUsageRow } from './ledger-rows.js';

describe('seeded ledger rows', () => {
  const now = Date.UTC(2026, 11, 1);
  const total = 1_000_000;
  const org = '00000000-0000-4000-8000-000000000001';

  it('are unique requests spread over the last days, all inside the report window', () => {
    const first = seedUsageRow(0, total, now, org);
    const last = seedUsageRow(total - 1, total, now, org);
    expect(first.requestId).not.toBe(last.requestId);
    expect(first.createdAt.getTime()).toBeLessThan(now);
    expect(now - last.createdAt.getTime()).toBeLessThanOrEqual(LEDGER_DAYS * 86_400_000 + 60_000);
    expect(LEDGER_DAYS).toBeLessThan(REPORT_DAYS);
  });

  it('vary in model, tokens and status like real traffic', () => {
    const rows = Array.from({ length: 200 }, (_, i) => seedUsageRow(i, total, now, org));
    expect(new Set(rows.map((r) => r.model)).size).toBeGreaterThan(2);
    expect(rows.filter((r) => r.status !== 200)).toHaveLength(4);
    expect(rows.every((r) => r.costUsd > 0 && r.baselineCostUsd > r.costUsd && r.orgId === org)).toBe(true);
  });
});
