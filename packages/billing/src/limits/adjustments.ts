import type { ConsumeStep, CounterStep, Kv } from '@svc/kv';
import { slotOf } from './kv-keys.js';

/**
 * Writes the corrections that follow an admission (charges, settlements, releases) without ever
 * failing the request. A month-counter correction that the Kv refuses is kept here, merged by
 * key, and written again after the next successful Kv call of this instance, so a blip does not
 * lose spend; a rate-limit bucket correction is dropped (the bucket refills within a minute).
 */
export class Adjustments {
  private readonly pending = new Map<string, CounterStep>();
  private retrying = false;

  constructor(
    private readonly kv: Kv,
    private readonly onError: (error: unknown) => void,
    private readonly maxPending: number,
  ) {}

  /** Counter corrections waiting for the Kv. */
  get backlog(): number {
    return this.pending.size;
  }

  /** Applies `steps` (forced or unlimited, so they always fit); resolves either way. */
  async apply(steps: ConsumeStep[]): Promise<void> {
    if (steps.length === 0) return;
    try {
      await this.kv.consumeAll(steps);
    } catch (error) {
      this.onError(error);
      for (const step of steps) if (step.kind === 'counter') this.keep(step);
      return;
    }
    this.retrySoon();
  }

  /** Writes the backlog (in the background) unless it is empty or already being written. */
  retrySoon(): void {
    if (this.pending.size === 0 || this.retrying) return;
    this.retrying = true;
    void this.retry().finally(() => {
      this.retrying = false;
    });
  }

  private async retry(): Promise<void> {
    // One call per organisation: a call's keys must share a cluster slot.
    const bySlot = new Map<string, CounterStep[]>();
    for (const step of this.pending.values()) {
      const slot = slotOf(step.key);
      const group = bySlot.get(slot);
      if (group === undefined) bySlot.set(slot, [step]);
      else group.push(step);
    }
    this.pending.clear();
    for (const steps of bySlot.values()) {
      try {
        await this.kv.consumeAll(steps);
      } catch (error) {
        this.onError(error);
        for (const step of steps) this.keep(step);
      }
    }
  }

  private keep(step: CounterStep): void {
    const held = this.pending.get(step.key);
    if (held !== undefined) {
      held.cost += step.cost;
      return;
    }
    if (this.pending.size >= this.maxPending) {
      this.onError(new Error(`limits: ${this.maxPending} counter corrections wait for the Kv; dropped one for ${step.key}`));
      return;
    }
    this.pending.set(step.key, { ...step });
  }
}
