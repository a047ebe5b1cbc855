import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { storedModels } from '../schema/stored-models.js';
import type { Drizzle } from './drizzle.js';

/** A model entry stored through the admin API, as stored. */
export interface StoredModelRecord {
  /** `<provider>/<model>`. */
  id: string;
  /** The entry's fields in SVC_CONFIG `models:` shape, without `id` (validated by the caller). */
  entry: Record<string, unknown>;
  /** Key id of the admin who last wrote it. */
  updatedBy: string | null;
  createdAt: Date;
  /** Moves on every put. */
  updatedAt: Date;
}

/** The deployment's stored model entries, one per model id. */
export interface StoredModelRepository {
  /** Every stored entry, by id. */
  list(): Promise<StoredModelRecord[]>;
  get(id: string): Promise<StoredModelRecord | undefined>;
  /** Stores the entry or replaces the one of that id (`createdAt` is kept). */
  put(id: string, entry: Record<string, unknown>, updatedBy: string | null): Promise<{ record: StoredModelRecord; created: boolean }>;
  /** False when there was none. */
  delete(id: string): Promise<boolean>;
}

export function createStoredModelRepository(db: Drizzle): StoredModelRepository {
  return {
    async list() {
      return db.select().from(storedModels).orderBy(asc(storedModels.id));
    },

    async get(id) {
      const [row] = await db.select().from(storedModels).where(eq(storedModels.id, id)).limit(1);
      return row;
    },

    async put(id, entry, updatedBy) {
      const [row] = await db
        .insert(storedModels)
        .values({ id, entry, updatedBy })
        .onConflictDoUpdate({ target: storedModels.id, set: { entry, updatedBy, updatedAt: sql`now()` } })
        // xmax is 0 on a freshly inserted row version, non-zero when the upsert updated.
        .returning({ ...getTableColumns(storedModels), created: sql<boolean>`(xmax = 0)` });
      const { created, ...record } = row!;
      return { record, created };
    },

    async delete(id) {
      const rows = await db.delete(storedModels).where(eq(storedModels.id, id)).returning({ id: storedModels.id });
      return rows.length > 0;
    },
  };
}
