import type { ModelInfo } from '@svc/catalog';
import type { Attempt } from './attempt.js';
import { isGatewayError, isProviderError } from '@svc/core';
import { refusalKind } from '@svc/billing';
import type { Metrics } from '@svc/telemetry';

/** Counts a limit's refusal: `rate` (429 RPM/TPM), `budget` or `quota` (402). */
export function countRejection(metrics: Metrics, error: unknown): void {
  if (!isGatewayError(error)) return;
  metrics.rateLimitRejections.series(refusalKind(error)).inc();
}

/** A failed provider call by normalised kind and upstream status (0 without one). */
export function countUpstreamError(metrics: Metrics, model: ModelInfo, kind: string, upstreamStatus: number | undefined): void {
  metrics.upstreamErrors.inc({ provider: model.provider, kind, status: upstreamStatus ?? 0 });
}

/** One attempt of the waterfall on its model's series: answered, failed (by kind and status) or skipped. */
export function observeAttempt(metrics: Metrics, model: ModelInfo, attempt: Attempt): void {
  const series = metrics.model(model.provider, model.id);
  const seconds = attempt.latencyMs / 1000;
  if (attempt.outcome === 'ok') series.providerOk.observe(seconds);
  else if (attempt.outcome === 'error') {
    series.providerError.observe(seconds);
    countUpstreamError(metrics, model, attempt.errorKind ?? 'unknown', attempt.upstreamStatus);
  } else series.providerSkipped.observe(seconds);
}
