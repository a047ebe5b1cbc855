import { type Catalog, type LiveCatalog, type ModelEntry, type ModelInfo, modelEntrySchema } from '@svc/catalog';
import { invalidRequest } from '@svc/core';
import type { Database, StoredModelRecord } from '@svc/db';
import type { Kv } from '@svc/kv';
import type { Logger } from '@svc/telemetry';
import * as v from 'valibot';
import type { Discovery, ProviderDiscovery } from './discovery.js';

/** A stored entry's fields: SVC_CONFIG `models:` without `id` (the path names it) nor `fallbacks` (read at start only). */
export type StoredEntryFields = Omit<ModelEntry, 'id' | 'fallbacks'>;

export interface ModelStoreSettings {
  db: Pick<Database, 'storedModels'>;
  kv: Pick<Kv, 'publish' | 'subscribe'>;
  /** The catalog every part of this instance reads; swapped on each change. */
  live: LiveCatalog;
  /** The catalog from the stored entries and the discovered models (throws an Error naming a bad entry). */
  build(stored: readonly ModelEntry[], discovered: readonly ModelInfo[]): Catalog;
  /** Reads the OpenAI-compatible providers' model lists again; `previous` is kept for one that cannot be read. */
  discover(previous: readonly ModelInfo[]): Promise<Discovery>;
  /** What discovery found at start. */
  discovered: Discovery;
  logger: Logger;
  /** Re-read the stored entries this often in case a change notice was lost (pub/sub is at most once). Default 30 s; 0 never. */
  refreshMs?: number;
  /** Pub/sub channel of change notices. Default `svc:models:changed`. */
  channel?: string;
}

/** A stored entry and the catalog model it makes (undefined while its provider is not configured here). */
export interface StoredModelView {
  record: StoredModelRecord;
  model: ModelInfo | undefined;
}

/** The message of a notice: the stored entries changed, or every instance should read its providers' lists again. */
type Notice = 'changed' | 'discover';

/**
 * The models stored through the admin API, shared by every instance through the database: each
 * instance holds a `LiveCatalog` built from the built-in models, SVC_CONFIG, the discovered models
 * and the stored entries. A write stores the entry, swaps this instance's snapshot, then publishes
 * a notice on which every instance re-reads the table and swaps its own, within a pub/sub round
 * trip; a periodic re-read covers a lost notice. Requests never read the database: they read the
 * snapshot in force.
 */
export class ModelStore {
  #discovered: Discovery;
  #fingerprint = '';
  #generation = 0;
  #unsubscribe: (() => Promise<void>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #channel: string;

  constructor(private readonly settings: ModelStoreSettings) {
    this.#discovered = settings.discovered;
    this.#channel = settings.channel ?? 'svc:models:changed';
  }

  /** Loads the stored entries and listens for notices. Call once, before serving. */
  async start(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = await this.settings.kv.subscribe(this.#channel, (message) => void this.#onNotice(message as Notice));
    await this.reload();
    const every = this.settings.refreshMs ?? 30_000;
    if (every > 0) {
      this.#timer = setInterval(() => void this.reload().catch((error: unknown) => this.#warn(error)), every);
      this.#timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = undefined;
    await unsubscribe?.();
  }

  /** Every stored entry, by id, with the model it makes. */
  async list(): Promise<StoredModelView[]> {
    return (await this.settings.db.storedModels.list()).map((record) => this.#view(record));
  }

  async get(id: string): Promise<StoredModelView | undefined> {
    const record = await this.settings.db.storedModels.get(id);
    return record && this.#view(record);
  }

  /**
   * Stores (or replaces) the entry of `id` for every instance; resolves once this instance serves it.
   * @throws GatewayError 400 when the catalog would not accept it (its provider is not configured, a new model lacks a field...).
   */
  async put(id: string, fields: StoredEntryFields, by: string | null): Promise<{ view: StoredModelView; created: boolean }> {
    const others = (await this.settings.db.storedModels.list()).filter((record) => record.id !== id);
    let catalog: Catalog;
    try {
      catalog = this.settings.build([...this.#entries(others), { ...fields, id }], this.#discovered.models);
    } catch (error) {
      throw invalidRequest(`The model '${id}' cannot be served: ${(error as Error).message}.`, null, 'invalid_model');
    }
    // A retired model's error names its replacement: it must be a model clients can be sent to.
    if (fields.replacement !== undefined && !catalog.resolve(fields.replacement)) {
      throw invalidRequest(`replacement '${fields.replacement}' is not a model this gateway serves.`, 'replacement', 'invalid_model');
    }
    const { record, created } = await this.settings.db.storedModels.put(id, { ...fields }, by);
    await this.#announce('changed');
    return { view: this.#view(record), created };
  }

  /** Removes the stored entry of `id` for every instance (the catalog's or the configuration's entry, if any, is served again). False when there was none. */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.settings.db.storedModels.delete(id);
    if (deleted) await this.#announce('changed');
    return deleted;
  }

  /** Reads the OpenAI-compatible providers' model lists again, here and on every other instance. */
  async refresh(): Promise<{ providers: ProviderDiscovery[]; models: readonly ModelInfo[] }> {
    await this.#rediscover();
    await this.settings.kv.publish(this.#channel, 'discover' satisfies Notice);
    return { providers: this.#discovered.providers, models: this.#discovered.models };
  }

  /** Re-reads the stored entries and swaps the catalog when they (or the discovered models) changed. */
  async reload(): Promise<void> {
    const generation = ++this.#generation;
    const records = await this.settings.db.storedModels.list();
    if (generation !== this.#generation) return;
    const fingerprint = JSON.stringify([records.map((record) => [record.id, record.updatedAt.getTime()]), this.#discovered.models.map((model) => model.id)]);
    if (fingerprint === this.#fingerprint) return;
    this.settings.live.swap(this.#buildServable(this.#entries(records)));
    this.#fingerprint = fingerprint;
  }

  /** The catalog with every stored entry this instance can serve; one it cannot (its provider is not configured here) is logged and left out. */
  #buildServable(entries: readonly ModelEntry[]): Catalog {
    const { build, logger } = this.settings;
    const discovered = this.#discovered.models;
    try {
      return build(entries, discovered);
    } catch {
      const servable: ModelEntry[] = [];
      for (const entry of entries) {
        try {
          build([...servable, entry], discovered);
          servable.push(entry);
        } catch (error) {
          logger.warn({ model: entry.id, err: error }, 'stored model entry cannot be served on this instance; it is left out');
        }
      }
      return build(servable, discovered);
    }
  }

  async #announce(notice: Notice): Promise<void> {
    await this.reload();
    await this.settings.kv.publish(this.#channel, notice);
  }

  async #rediscover(): Promise<void> {
    this.#discovered = await this.settings.discover(this.#discovered.models);
    await this.reload();
  }

  async #onNotice(notice: Notice): Promise<void> {
    try {
      await (notice === 'discover' ? this.#rediscover() : this.reload());
    } catch (error) {
      this.#warn(error);
    }
  }

  /** The stored records as entries; one that no longer parses (a field since removed) is logged and left out. */
  #entries(records: readonly StoredModelRecord[]): ModelEntry[] {
    const entries: ModelEntry[] = [];
    for (const record of records) {
      const parsed = v.safeParse(modelEntrySchema, { ...record.entry, id: record.id });
      if (parsed.success) entries.push(parsed.output);
      else this.settings.logger.warn({ model: record.id, issues: parsed.issues.map((issue) => issue.message) }, 'stored model entry is not valid; it is not served');
    }
    return entries;
  }

  #view(record: StoredModelRecord): StoredModelView {
    return { record, model: this.settings.live.get(record.id) };
  }

  #warn(error: unknown): void {
    this.settings.logger.warn({ err: error }, 'stored models could not be re-read; the catalog in force keeps serving');
  }
}
