import type { TaskComplexity, Tier } from '@svc/core';
import { complexities, tiers } from './types.js';

/**
 * Keeps each complexity class's tier mix near what the router chooses without online learning.
 * For every routed request the router knows two first choices: the fresh one (quality model and
 * priors only) and the learned one (with the traffic adjustments). The guard tracks, per class,
 * the decayed share of each tier under both; a learned choice that differs in tier is taken only
 * while it keeps every tier's share within `tolerance` of the fresh share. Online learning can
 * therefore reorder models inside a tier freely and move a bounded share across tiers, but never
 * collapse a class onto the cheapest (or dearest) tier.
 */
export interface TierGuard {
  /** Records one decision and says whether the learned tier may replace the fresh one. */
  admit(complexity: TaskComplexity, fresh: Tier, learned: Tier): boolean;
  /** Decayed tier shares of a class: fresh (no learning) and served. */
  shares(complexity: TaskComplexity): { fresh: Record<Tier, number>; served: Record<Tier, number> };
}

export interface TierGuardSettings {
  /** Largest drift of a tier's share from the fresh share, 0..1 (default 0.05). */
  tolerance?: number;
  /** Weight of history per decision (default 0.998: a window of about 500 decisions). */
  decay?: number;
}

export function createTierGuard(settings: TierGuardSettings = {}): TierGuard {
  const tolerance = settings.tolerance ?? 0.05;
  const decay = settings.decay ?? 0.998;
  const state = new Map(complexities.map((c) => [c, { n: 0, fresh: new Float64Array(3), served: new Float64Array(3) }]));
  const index = (t: Tier) => (t === 'T1' ? 0 : t === 'T2' ? 1 : 2);

  return {
    admit(complexity, fresh, learned) {
      const s = state.get(complexity)!;
      s.n = s.n * decay + 1;
      for (let t = 0; t < 3; t++) {
        s.fresh[t]! *= decay;
        s.served[t]! *= decay;
      }
      const f = index(fresh);
      const l = index(learned);
      s.fresh[f]! += 1;
      let ok = f === l;
      if (!ok) {
        // Would serving the learned tier keep both affected shares within the tolerance?
        const lost = (s.served[f]! - s.fresh[f]!) / s.n;
        const gained = (s.served[l]! + 1 - s.fresh[l]!) / s.n;
        ok = lost >= -tolerance && gained <= tolerance;
      }
      s.served[ok ? l : f]! += 1;
      return ok;
    },
    shares(complexity) {
      const s = state.get(complexity)!;
      const share = (v: Float64Array) => Object.fromEntries(tiers.map((t) => [t, s.n > 0 ? v[index(t)]! / s.n : 0])) as Record<Tier, number>;
      return { fresh: share(s.fresh), served: share(s.served) };
    },
  };
}
