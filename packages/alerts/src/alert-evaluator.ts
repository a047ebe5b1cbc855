import type { AlertRecord, AlertRepository, SloRepository } from '@svc/db';
import type { Kv } from '@svc/kv';
import type { AlertEvent, AlertEvents } from './alert-events.js';
import { breakerAlertKey, breakerOpenAlert, refusalSpikeAlert, sloAlertKey, sloBreachAlert } from './alert-rules.js';
import { judgeSlo } from './slo-rules.js';

type RefusalKind = Extract<AlertEvent, { type: 'limit_refused' }>['kind'];

export interface AlertEvaluatorSettings {
  /** Where alerts are stored: one firing alert per dedupe key, atomically (N instances raise one alert). */
  store: Pick<AlertRepository, 'raise' | 'resolve' | 'firing'>;
  /** Every organisation's SLOs and their window figures. */
  slos: Pick<SloRepository, 'list' | 'windowStats'>;
  /** Shared refusal counters and the evaluation lock (Redis when instances must agree). */
  kv: Pick<Kv, 'get' | 'increment' | 'setIfAbsent'>;
  /**
   * A breaker's current state, to resolve alerts of breakers that closed without a transition
   * seen here (closed by another instance, or expired without traffic). Absent: only transitions resolve.
   */
  breakerState?: (key: string) => Promise<'closed' | 'open' | 'half_open'>;
  /** How often `tick` runs once started, ms; 0: never (call `tick` yourself). Default 30 000. */
  intervalMs?: number;
  /** Refusals of one organisation and one allowance within a calendar minute that raise an alert. Default 20. */
  refusalsPerMinute?: number;
  /** Prefix of every kv key. Default `alerts:`. */
  keyPrefix?: string;
  /** Failures the evaluator absorbed (a store or kv error never reaches a request). */
  onError?: (error: unknown, what: string) => void;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
}

const MINUTE_MS = 60_000;
/** Distinct (organisation, allowance) refusal counters kept between two flushes; beyond, new ones are dropped. */
const maxPendingCounters = 10_000;

/**
 * Raises and resolves alerts from SLOs, breaker transitions and limit refusals.
 *
 * - `emit` is the request path's entry: synchronous, allocation-light, never throws. A breaker
 *   transition is written at once without being awaited; refusals are counted in memory.
 * - `tick` (every `intervalMs`) adds the counted refusals to shared per-minute counters in the kv
 *   and raises a spike alert at `refusalsPerMinute`; then, on one instance per interval (a kv
 *   lock), judges every SLO and resolves what recovered.
 *
 * Several instances are safe without coordination: the store keeps one firing alert per dedupe
 * key (an SLO, a breaker, an organisation's allowance), so N instances raising one condition
 * store one alert, and one of them resolves it; the lock only saves them repeating the work.
 */
export class AlertEvaluator implements AlertEvents {
  private readonly settings: AlertEvaluatorSettings;
  private readonly intervalMs: number;
  private readonly refusalsPerMinute: number;
  private readonly prefix: string;
  private readonly now: () => number;
  private refusals = new Map<string, { orgId: string; kind: RefusalKind; count: number }>();
  private readonly writes = new Set<Promise<void>>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;

  constructor(settings: AlertEvaluatorSettings) {
    this.settings = settings;
    this.intervalMs = settings.intervalMs ?? 30_000;
    this.refusalsPerMinute = Math.max(1, settings.refusalsPerMinute ?? 20);
    this.prefix = settings.keyPrefix ?? 'alerts:';
    this.now = settings.now ?? Date.now;
  }

  emit(event: AlertEvent): void {
    if (event.type === 'limit_refused') {
      const key = `${event.orgId}|${event.kind}`;
      const entry = this.refusals.get(key);
      if (entry) entry.count += 1;
      else if (this.refusals.size < maxPendingCounters) this.refusals.set(key, { orgId: event.orgId, kind: event.kind, count: 1 });
      return;
    }
    const write =
      event.type === 'breaker_opened'
        ? this.settings.store.raise(breakerOpenAlert(event.key, event.reason, event.at))
        : this.settings.store.resolve(breakerAlertKey(event.key), { resolution: event.reason, closed_at: new Date(event.at).toISOString() });
    this.track(write, `breaker ${event.key} alert`);
  }

  /** Starts the periodic `tick` (unref'd: it never keeps the process alive). */
  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref?.();
  }

  /** Stops the timer, then writes what is pending (breaker alerts, counted refusals). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.flush();
  }

  /** Writes pending breaker alerts and adds counted refusals to the shared counters (raising spikes). */
  async flush(): Promise<void> {
    await this.flushRefusals();
    await Promise.all([...this.writes]);
  }

  /** One evaluation round; concurrent calls share it. */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    await this.flush();
    if (!(await this.guard(() => this.settings.kv.setIfAbsent(`${this.prefix}evaluation-lock`, String(this.now()), { ttlMs: Math.max(1_000, Math.floor(this.intervalMs * 0.9)) }), 'evaluation lock'))) return;
    await this.evaluateSlos();
    await this.reconcile();
  }

  /**
   * Judges every SLO over its window: raises an alert for a breach not yet firing, resolves the
   * alert of an SLO that is met again, has no traffic left in its window, or was deleted.
   */
  async evaluateSlos(): Promise<void> {
    const now = new Date(this.now());
    const loaded = await this.guard(() => Promise.all([this.settings.slos.list(), this.settings.store.firing('slo_breach')]), 'loading SLOs');
    if (!loaded) return;
    const [slos, firing] = loaded;
    const firingKeys = new Set(firing.map((alert) => alert.dedupeKey));
    for (const slo of slos) {
      const key = sloAlertKey(slo.id);
      await this.guard(async () => {
        const compliance = judgeSlo(slo, await this.settings.slos.windowStats(slo, now));
        if (compliance.status === 'breached') {
          if (!firingKeys.has(key)) await this.settings.store.raise(sloBreachAlert(slo, compliance));
        } else if (firingKeys.has(key)) {
          await this.settings.store.resolve(key, { resolution: compliance.status, compliance: compliance.compliance, resolved_value: compliance.value });
        }
      }, `SLO ${slo.id}`);
      firingKeys.delete(key);
    }
    for (const key of firingKeys) await this.guard(() => this.settings.store.resolve(key, { resolution: 'slo_deleted' }), `alert ${key}`);
  }

  /** Resolves breaker alerts of breakers now closed and refusal spikes that calmed down (under the threshold this minute and the last). */
  async reconcile(): Promise<void> {
    const firing = await this.guard(() => Promise.all([this.settings.store.firing('breaker_open'), this.settings.store.firing('limit_spike')]), 'loading firing alerts');
    if (!firing) return;
    const [breakers, spikes] = firing;
    const breakerState = this.settings.breakerState;
    if (breakerState) {
      for (const alert of breakers) {
        await this.guard(async () => {
          if ((await breakerState(alert.subject)) === 'closed') await this.settings.store.resolve(alert.dedupeKey, { resolution: 'closed' });
        }, `breaker ${alert.subject}`);
      }
    }
    const minute = Math.floor(this.now() / MINUTE_MS);
    for (const alert of spikes) await this.guard(() => this.resolveCalmSpike(alert, minute), `alert ${alert.dedupeKey}`);
  }

  private async resolveCalmSpike(alert: AlertRecord, minute: number): Promise<void> {
    if (alert.orgId === null) return;
    const [current, previous] = await Promise.all([minute, minute - 1].map((m) => this.settings.kv.get(this.refusalKey(alert.orgId!, alert.subject, m))));
    const peak = Math.max(Number(current ?? 0), Number(previous ?? 0));
    if (peak < this.refusalsPerMinute) await this.settings.store.resolve(alert.dedupeKey, { resolution: 'calm', refusals_last_minutes: peak });
  }

  private async flushRefusals(): Promise<void> {
    if (this.refusals.size === 0) return;
    const counted = this.refusals;
    this.refusals = new Map();
    const minute = Math.floor(this.now() / MINUTE_MS);
    await Promise.all(
      [...counted.values()].map((entry) =>
        this.guard(async () => {
          const total = await this.settings.kv.increment(this.refusalKey(entry.orgId, entry.kind, minute), entry.count, { ttlMs: 3 * MINUTE_MS });
          // Raising is idempotent: the instances that see the minute over the threshold store one alert.
          if (total >= this.refusalsPerMinute) {
            await this.settings.store.raise(refusalSpikeAlert(entry.orgId, entry.kind, total, this.refusalsPerMinute, minute));
          }
        }, `refusals of ${entry.orgId}`),
      ),
    );
  }

  private refusalKey(orgId: string, kind: string, minute: number): string {
    return `${this.prefix}refusals:${orgId}:${kind}:${minute}`;
  }

  private track(write: Promise<unknown>, what: string): void {
    const done: Promise<void> = write.then(
      () => undefined,
      (error: unknown) => this.settings.onError?.(error, what),
    );
    this.writes.add(done);
    void done.finally(() => this.writes.delete(done));
  }

  /** Runs `work`; a failure goes to `onError` and resolves undefined. */
  private async guard<T>(work: () => Promise<T>, what: string): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.settings.onError?.(error, what);
      return undefined;
    }
  }
}
