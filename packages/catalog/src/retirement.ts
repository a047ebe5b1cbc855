import type { ModelInfo } from './model.js';

/** True when `model` has a retirement date and `now` (ms since the epoch) is at or past it. */
export function isRetired(model: ModelInfo, now: number = Date.now()): boolean {
  return model.retiresAt !== undefined && Date.parse(model.retiresAt) <= now;
}

/** The earliest retirement date still ahead of `now` among `models` (ms), or Infinity. */
export function nextRetirement(models: readonly ModelInfo[], now: number = Date.now()): number {
  let next = Number.POSITIVE_INFINITY;
  for (const model of models) {
    if (model.retiresAt === undefined) continue;
    const at = Date.parse(model.retiresAt);
    if (at > now && at < next) next = at;
  }
  return next;
}
