import { LiveCatalog, createCatalog } from '@svc/catalog';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from './router.js';
import { ask, fixtureCatalog } from './test/fixture-catalog.js';

/** The fixture catalog with `changes` applied to one model (by id). */
function withChanges(id: string, changes: object) {
  return createCatalog(fixtureCatalog().list().map((model) => (model.id === id ? { ...model, ...changes } : model)));
}

const chosen = (router: ReturnType<typeof createRouter>, model = 'svc/auto-speed') => {
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) for (const m of router.route(ask(`short question ${i}`, { model })).waterfall) seen.add(m.id);
  return seen;
};

describe('a router over a live catalog', () => {
  afterEach(() => vi.useRealTimers());

  it('routes over the new snapshot from the first request after a swap, without being rebuilt', () => {
    const live = new LiveCatalog(fixtureCatalog());
    const router = createRouter({ catalog: live, quality: false, embedder: false });
    expect(() => router.route(ask('hi', { model: 'new/speedy' }))).toThrow(/does not exist/);
    const added = { ...fixtureCatalog().get('fast/tiny')!, id: 'new/speedy', provider: 'new', upstreamId: 'speedy', family: 'speedy' };
    live.swap(createCatalog([...fixtureCatalog().list(), added]));
    expect(router.route(ask('hi', { model: 'new/speedy' })).model.id).toBe('new/speedy');
    expect(chosen(router)).toContain('new/speedy');
  });

  it('a model past its retirement date leaves the pools and is refused by name, naming its replacement; before it, it is served', () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-01T00:00:00Z') });
    const live = new LiveCatalog(withChanges('fast/tiny', { retiresAt: '2030-01-02T00:00:00.000Z', replacement: 'acme/mini' }));
    const router = createRouter({ catalog: live, quality: false, embedder: false });
    expect(chosen(router)).toContain('fast/tiny');
    expect(router.route(ask('hi', { model: 'fast/tiny' })).model.id).toBe('fast/tiny');

    // The date passes with no swap: the next request sees it.
    vi.setSystemTime(Date.parse('2030-01-02T00:00:01Z'));
    expect(chosen(router)).not.toContain('fast/tiny');
    let refusal: unknown;
    try {
      router.route(ask('hi', { model: 'fast/tiny' }));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 404, code: 'model_retired', param: 'model', message: expect.stringContaining("Use 'acme/mini' instead") });
  });
});
