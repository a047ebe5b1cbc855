import { type Capability, type Catalog, type ModelInfo, isRetired } from '@svc/catalog';
import type { ChatRequest, Tier } from '@svc/core';

/** What each routing alias draws from (spec §Routing aliases). */
export type Pool = 'all' | Tier | 'safety';

const aliases: Readonly<Record<string, Pool>> = {
  auto: 'all',
  'svc/auto': 'all',
  'svc/auto-quality': 'T1',
  'svc/auto-value': 'T2',
  'svc/auto-speed': 'T3',
  'svc/auto-safety': 'safety',
};

/** The pool an alias names, or undefined for explicit model identifiers. Case-insensitive. */
export function aliasPool(model: string): Pool | undefined {
  return aliases[model] ?? aliases[model.trim().toLowerCase()];
}

/** The catalog's chat models split into pools once, so routing never scans or filters the catalog. */
export interface Pools {
  all: readonly ModelInfo[];
  T1: readonly ModelInfo[];
  T2: readonly ModelInfo[];
  T3: readonly ModelInfo[];
  /** Models flagged `safetyCritical`; the T1 pool when none is. */
  safety: readonly ModelInfo[];
}

/** The pools at `now` (ms): models past their retirement date are in none. */
export function buildPools(catalog: Catalog, now: number = Date.now()): Pools {
  // Models served only when named (`routable: false`) are in no pool.
  const all = catalog.list({ kind: 'chat' }).filter((m) => m.routable !== false && !isRetired(m, now));
  const flagged = all.filter((m) => m.safetyCritical === true);
  const T1 = all.filter((m) => m.tier === 'T1');
  return { all, T1, T2: all.filter((m) => m.tier === 'T2'), T3: all.filter((m) => m.tier === 'T3'), safety: flagged.length > 0 ? flagged : T1 };
}

/** Capabilities the request cannot be served without. */
export function requiredCapabilities(request: ChatRequest, features: { tools: boolean; json: boolean; vision: boolean; audio: boolean }): Capability[] {
  const needed: Capability[] = [];
  if (features.tools) needed.push('tools');
  if (features.json) needed.push('json');
  if (features.vision) needed.push('vision');
  if (features.audio) needed.push('audio');
  if (request.reasoning?.enabled === true) needed.push('reasoning');
  return needed;
}
