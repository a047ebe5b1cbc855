/** Requests' worth of judging an organisation may save up on one instance (a burst where a choice opens). */
export const MAX_SAVED_SAMPLES = 20;

/**
 * The focused sampler's budget (docs/routing.md, "Shadow judging"): each offer of an organisation
 * earns its sample rate, a judged request spends 1, and at most `MAX_SAVED_SAMPLES` are saved up,
 * so an instance judges at most the rate of what it was offered (plus the saved-up burst).
 */
export class SampleCredit {
  private readonly credit = new Map<string, number>();

  /** Adds `rate` to the organisation's credit; true when a whole request's worth is there to spend. */
  earn(orgId: string, rate: number): boolean {
    const next = Math.min(MAX_SAVED_SAMPLES, (this.credit.get(orgId) ?? 0) + rate);
    this.credit.set(orgId, next);
    return next >= 1;
  }

  /** True when the organisation's next `rate` would not fit: the saved-up credit is full (what it earns now would be dropped). */
  full(orgId: string, rate: number): boolean {
    return (this.credit.get(orgId) ?? 0) + rate > MAX_SAVED_SAMPLES;
  }

  spend(orgId: string): void {
    this.credit.set(orgId, (this.credit.get(orgId) ?? 0) - 1);
  }
}
