/**
 * What the gateway's router read at the start of a live run (docs/routing.md, "The latency term's
 * scale"): the live latency figures of the two models in a sample of its first decisions, from
 * `GET /v1/admin/routing/decisions/{request_id}` (each decision's scored candidates).
 */
import type { LiveGateway } from '../semantic/live/gateway.js';

/** Sampled decisions of the stream's start: how often the weak model's live figure was the lower, and the median figures. */
export interface StartReading {
  sampled: number;
  weakFaster: number;
  medianStrongMs: number;
  medianWeakMs: number;
}

interface Candidate {
  id: string;
  latencyMs?: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Every `every`-th of the first `upTo` request ids' decisions (candidates named `strong` and `weak`). */
export async function readStart(g: LiveGateway, requestIds: readonly string[], models: { strong: string; weak: string }, upTo = 2000, every = 20): Promise<StartReading> {
  const strongMs: number[] = [];
  const weakMs: number[] = [];
  for (let n = 0; n < Math.min(upTo, requestIds.length); n += every) {
    const response = await fetch(`${g.controlUrl}/v1/admin/routing/decisions/${requestIds[n]}`, { headers: { authorization: `Bearer ${g.masterKey}` } });
    if (!response.ok) continue;
    const candidates = ((await response.json()) as { candidates?: Candidate[] }).candidates ?? [];
    const ms = (id: string) => candidates.find((c) => c.id === id)?.latencyMs;
    const [strong, weak] = [ms(models.strong), ms(models.weak)];
    if (strong === undefined || weak === undefined) continue;
    strongMs.push(strong);
    weakMs.push(weak);
  }
  const weakFaster = weakMs.filter((w, i) => w < strongMs[i]!).length;
  return { sampled: weakMs.length, weakFaster: weakMs.length ? weakFaster / weakMs.length : Number.NaN, medianStrongMs: median(strongMs), medianWeakMs: median(weakMs) };
}
