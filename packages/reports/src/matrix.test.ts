import { describe, expect, it } from 'vitest';
import { type BreakerView, capabilityMatrix, type MatrixSettings } from './matrix.js';
import { testCatalog } from './test-models.js';

const settings: MatrixSettings = { minDecisions: 10, minSuccessRate: 0.9, windowHours: 24 };
const now = new Date('2025-05-10T12:00:00Z');
const stats = (model: string, decisions: number, succeeded: number, failed: number, latencyP50Ms: number | null = 300) => ({
  model,
  decisions,
  succeeded,
  failed,
  fallbacks: 0,
  latencyP50Ms,
  latencyP95Ms: latencyP50Ms,
});

describe('capabilityMatrix', () => {
  const models = testCatalog().list();
  const breakers: BreakerView[] = [
    { key: 'cloud/big', state: 'open', consecutiveFailures: 5, openedAt: now.getTime() - 1000, nextProbeAt: now.getTime() + 4000 },
    { key: 'acme/mid', state: 'half_open', consecutiveFailures: 5, openedAt: now.getTime() - 9000, nextProbeAt: now.getTime() - 1000 },
  ];
  const matrix = capabilityMatrix(models, breakers, [stats('acme/big', 40, 40, 0, 850), stats('libre/small', 20, 15, 5), stats('acme/mid', 12, 12, 0), stats('other/x', 99, 99, 0)], settings, now);
  const row = (id: string) => matrix.models.find((m) => m.id === id)!;

  it('lists the chat models in catalog order with their capabilities, prices and flags', () => {
    expect(matrix.models.map((m) => m.id)).toEqual(['acme/big', 'cloud/big', 'acme/mid', 'libre/small']);
    expect(row('acme/big')).toMatchObject({
      provider: 'acme',
      family: 'big',
      tier: 'T1',
      capabilities: { tools: true, vision: true, json: false, reasoning: true, audio: false },
      context_window: 128_000,
      max_output_tokens: 4096,
      input_price_per_mtok: 1,
      output_price_per_mtok: 2,
      free: false,
      safety_critical: true,
    });
    expect(row('libre/small')).toMatchObject({ free: true, open_weight: true, safety_critical: false });
  });

  it('derives each status from breaker state and recent outcomes, with reasons', () => {
    expect(row('acme/big')).toMatchObject({ status: 'healthy', reasons: [], decisions: 40, success_rate: 1, p50_latency_ms: 850, breaker: { state: 'closed', consecutive_failures: 0, opened_at: null } });
    expect(row('cloud/big')).toMatchObject({
      status: 'unavailable',
      reasons: ['breaker_open', 'too_few_decisions'],
      decisions: 0,
      success_rate: null,
      p50_latency_ms: null,
      breaker: { state: 'open', consecutive_failures: 5, opened_at: '2025-05-10T11:59:59.000Z', next_probe_at: '2025-05-10T12:00:04.000Z' },
    });
    expect(row('acme/mid')).toMatchObject({ status: 'degraded', reasons: ['breaker_half_open'] });
    expect(row('libre/small')).toMatchObject({ status: 'degraded', reasons: ['success_rate_below_threshold'], success_rate: 0.75 });
  });

  it('is unknown below the minimum decision count', () => {
    const quiet = capabilityMatrix(models, [], [stats('acme/big', 9, 0, 9)], settings, now);
    expect(quiet.models[0]).toMatchObject({ status: 'unknown', reasons: ['too_few_decisions'], success_rate: 0 });
  });

  it('adds totals per status and capability, and the refresh time', () => {
    expect(matrix.refreshed_at).toBe('2025-05-10T12:00:00.000Z');
    expect(matrix.window_hours).toBe(24);
    expect(matrix.thresholds).toEqual({ min_decisions: 10, min_success_rate: 0.9 });
    expect(matrix.totals).toEqual({
      models: 4,
      healthy: 1,
      degraded: 2,
      unavailable: 1,
      unknown: 0,
      decisions: 72,
      capabilities: { tools: 3, vision: 1, json: 1, reasoning: 1, audio: 0 },
    });
  });
});
