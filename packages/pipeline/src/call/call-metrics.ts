import type { ModelInfo } from '@svc/catalog';
import { isGatewayError, isProviderError } from '@svc/core';
import { refusalKind } from '@svc/billing';
import type { Metrics } from '@svc/telemetry';

/** Counts a limit's refusal: `rate` (429 RPM/TPM), `budget` or `quota` (402). */
export function countRejection(metrics: Metrics, error: unknown): void {
  if (!isGatewayError(error)) return;
  metrics.rateLimitRejections.series(refusalKind(error)).inc();
}

/** One provider call that answered, in seconds. */
export function observeProviderOk(metrics: Metrics, model: ModelInfo, seconds: number): void {
  metrics.model(model.provider, model.id).providerOk.observe(seconds);
}

/** One provider call that failed, in seconds, and its error by kind and upstream status. */
export function observeProviderError(metrics: Metrics, model: ModelInfo, seconds: number, error: unknown): void {
  metrics.model(model.provider, model.id).providerError.observe(seconds);
  if (isProviderError(error)) countUpstreamError(metrics, model, error.kind, error.upstreamStatus);
}

/** A failed provider call by normalised kind and upstream status (0 without one). */
export function countUpstreamError(metrics: Metrics, model: ModelInfo, kind: string, upstreamStatus: number | undefined): void {
  metrics.upstreamErrors.inc({ provider: model.provider, kind, status: upstreamStatus ?? 0 });
}
