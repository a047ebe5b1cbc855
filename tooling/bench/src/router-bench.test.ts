import { builtInModels } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { benchCatalogModels, runRouterBench } from './router-bench.js';

describe('router bench', () => {
  it('trims the catalog to 100 chat models across tiers, or pads a small one', () => {
    const trimmed = benchCatalogModels();
    expect(trimmed).toHaveLength(100);
    expect(new Set(trimmed.map((m) => m.id)).size).toBe(100);
    expect(new Set(trimmed.map((m) => m.tier))).toEqual(new Set(['T1', 'T2', 'T3']));
    const small = benchCatalogModels(builtInModels.filter((m) => m.kind === 'chat').slice(0, 7));
    expect(small).toHaveLength(100);
    expect(new Set(small.map((m) => m.id)).size).toBe(100);
  });

  it('measures every request kind of the mix', () => {
    const r = runRouterBench({ warmup: 200, decisions: 2_000 });
    expect(r.catalogModels).toBe(100);
    expect(r.route.count).toBe(2_000);
    expect(r.byKind.every((k) => k.route.count > 0)).toBe(true);
    expect(r.decisionsPerSec).toBeGreaterThan(0);
  });
});
