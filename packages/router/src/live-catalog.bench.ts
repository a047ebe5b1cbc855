// The request path's cost of a swappable catalog (issue #31): a lookup through a LiveCatalog next to
// the immutable catalog it wraps, and a whole routing decision over each (the router's per-request
// view check). Run: cd packages/router && pnpm vitest bench --run src/live-catalog.bench.ts
import { LiveCatalog, createCatalog } from '@svc/catalog';
import { bench, describe } from 'vitest';
import { createRouter } from './router.js';
import { ask } from './test/fixture-catalog.js';

const fixed = createCatalog();
const live = new LiveCatalog(createCatalog());
const names = ['openai/gpt-4o-mini', 'gpt-4o-mini', 'claude-sonnet-4-5-20250929', 'anthropic/claude-haiku-4-5', 'ft:gpt-4o-mini-2024-07-18:acme::abc123'];

describe('catalog lookup (resolve)', () => {
  let i = 0;
  bench('immutable catalog (floor)', () => {
    fixed.resolve(names[i++ % names.length]!);
  });
  bench('live catalog (one more property read)', () => {
    live.resolve(names[i++ % names.length]!);
  });
});

const requests = names.map((model) => ask('What is the capital of France?', { model }));
const routerOverFixed = createRouter({ catalog: fixed, quality: false, embedder: false });
const routerOverLive = createRouter({ catalog: live, quality: false, embedder: false });

describe('routing decision for an explicit model', () => {
  let i = 0;
  bench('router over the immutable catalog (floor)', () => {
    routerOverFixed.route(requests[i++ % requests.length]!);
  });
  bench('router over the live catalog (view check per request)', () => {
    routerOverLive.route(requests[i++ % requests.length]!);
  });
});
