import { eq, sql } from 'drizzle-orm';
import { orgSettings } from '../schema/organizations.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** Per-organisation settings, one JSON object per org. */
export interface SettingsRepository {
  /** The organisation's settings; `{}` when none were stored. */
  get(orgId: string): Promise<Record<string, unknown>>;
  /**
   * Shallow-merges `patch` into the stored object atomically (top-level keys replace) and
   * returns the result. Rejects when the organisation does not exist.
   */
  merge(orgId: string, patch: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export function createSettingsRepository(db: Drizzle): SettingsRepository {
  return {
    async get(orgId) {
      if (!isUuid(orgId)) return {};
      const [row] = await db
        .select({ settings: orgSettings.settings })
        .from(orgSettings)
        .where(eq(orgSettings.orgId, orgId))
        .limit(1);
      return row?.settings ?? {};
    },

    async merge(orgId, patch) {
      const [row] = await db
        .insert(orgSettings)
        .values({ orgId, settings: patch })
        .onConflictDoUpdate({
          target: orgSettings.orgId,
          set: {
            settings: sql`${orgSettings.settings} || excluded.settings`,
            updatedAt: sql`now()`,
          },
        })
        .returning({ settings: orgSettings.settings });
      return row!.settings;
    },
  };
}
