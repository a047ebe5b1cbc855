import { LiveCatalog } from '@svc/catalog';
import type { StoredModelRecord, StoredModelRepository } from '@svc/db';
import { createMemoryKv } from '@svc/kv';
import { createLogger } from '@svc/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from './config-models.js';
import { ModelStore } from './model-store.js';

const logger = createLogger({ level: 'silent' });

/** `stored_models` in memory (the conformance suite checks the real ones). */
function memoryRepository(): StoredModelRepository & { rows: Map<string, StoredModelRecord> } {
  const rows = new Map<string, StoredModelRecord>();
  let clock = 0;
  return {
    rows,
    list: async () => [...rows.values()].sort((a, b) => a.id.localeCompare(b.id)),
    get: async (id) => rows.get(id),
    put: async (id, entry, updatedBy) => {
      const created = !rows.has(id);
      const record = { id, entry, updatedBy, createdAt: rows.get(id)?.createdAt ?? new Date(clock), updatedAt: new Date(++clock) };
      rows.set(id, record);
      return { record, created };
    },
    delete: async (id) => rows.delete(id),
  };
}

const stores: ModelStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.stop()));
});

/** Two instances on one repository and one kv, each with its own live catalog. */
async function twoInstances(enabled: readonly string[] = ['openai', 'myvllm']) {
  const repository = memoryRepository();
  const kv = createMemoryKv();
  const start = async () => {
    const build = (stored: Parameters<typeof buildCatalog>[0]['stored'], discovered: Parameters<typeof buildCatalog>[0]['discovered']) =>
      buildCatalog({ enabled: new Set(enabled), file: undefined, stored, discovered });
    const live = new LiveCatalog(build([], []));
    const store = new ModelStore({ db: { storedModels: repository }, kv, live, build, discover: async () => ({ models: [], providers: [] }), discovered: { models: [], providers: [] }, logger, refreshMs: 0 });
    await store.start();
    stores.push(store);
    return { store, live };
  };
  return { repository, a: await start(), b: await start() };
}

describe('stored models', () => {
  it("a price override stored on one instance is in force on the other after the notice, and a delete restores the catalog's", async () => {
    const { a, b } = await twoInstances();
    const listed = b.live.get('openai/gpt-4o-mini')!.inputPricePerMTok;
    const version = b.live.version;
    const { created, view } = await a.store.put('openai/gpt-4o-mini', { input_price_per_mtok: 42 }, 'key_admin');
    expect(created).toBe(true);
    expect(view.model?.inputPricePerMTok).toBe(42);
    await expect.poll(() => b.live.get('openai/gpt-4o-mini')?.inputPricePerMTok).toBe(42);
    expect(b.live.version).toBe(version + 1);
    expect(await a.store.delete('openai/gpt-4o-mini')).toBe(true);
    await expect.poll(() => b.live.get('openai/gpt-4o-mini')?.inputPricePerMTok).toBe(listed);
  });

  it('refuses a replacement that is not another served model (a retired model’s error would send clients nowhere)', async () => {
    const { a } = await twoInstances();
    const retiring = { retires_at: '2099-01-01' };
    await expect(a.store.put('openai/gpt-4o-mini', { ...retiring, replacement: 'openai/gpt-9-nowhere' }, null)).rejects.toMatchObject({ status: 400, param: 'replacement' });
    await expect(a.store.put('openai/gpt-4o-mini', { ...retiring, replacement: 'openai/gpt-4o-mini' }, null)).rejects.toMatchObject({ status: 400 });
    expect(await a.store.list()).toEqual([]);
    const { view } = await a.store.put('openai/gpt-4o-mini', { ...retiring, replacement: 'openai/gpt-4o' }, null);
    expect(view.model).toMatchObject({ replacement: 'openai/gpt-4o' });
    await a.store.delete('openai/gpt-4o-mini');
  });

  it('swaps nothing when a re-read finds no change (the pools are not rebuilt every 30 s)', async () => {
    const { a } = await twoInstances();
    const version = a.live.version;
    await a.store.reload();
    await a.store.reload();
    expect(a.live.version).toBe(version);
  });

  it("refuses an entry the catalog would not take, and an instance leaves out a stored entry it cannot serve while serving the rest", async () => {
    const { a, repository } = await twoInstances();
    await expect(a.store.put('nowhere/x', { input_price_per_mtok: 1, output_price_per_mtok: 1 }, null)).rejects.toMatchObject({ status: 400, message: expect.stringContaining("provider 'nowhere'") });
    await a.store.put('myvllm/qwen', { upstream_id: 'Qwen/Qwen3-32B', input_price_per_mtok: 1, output_price_per_mtok: 2 }, null);
    await a.store.put('openai/gpt-4o', { output_price_per_mtok: 99 }, null);
    // An instance without myvllm configured, on the same table.
    const live = new LiveCatalog(buildCatalog({ enabled: new Set(['openai']), file: undefined }));
    const store = new ModelStore({
      db: { storedModels: repository },
      kv: createMemoryKv(),
      live,
      build: (stored, discovered) => buildCatalog({ enabled: new Set(['openai']), file: undefined, stored, discovered }),
      discover: async () => ({ models: [], providers: [] }),
      discovered: { models: [], providers: [] },
      logger,
      refreshMs: 0,
    });
    await store.start();
    stores.push(store);
    expect(live.get('myvllm/qwen')).toBeUndefined();
    expect(live.get('openai/gpt-4o')?.outputPricePerMTok).toBe(99);
    expect(a.live.get('myvllm/qwen')).toMatchObject({ upstreamId: 'Qwen/Qwen3-32B', source: 'stored' });
  });
});
