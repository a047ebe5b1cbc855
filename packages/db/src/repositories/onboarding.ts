import { type SQL, and, asc, eq, sql } from 'drizzle-orm';
import { onboardingSteps } from '../schema/onboarding-steps.js';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';
import type { DerivedOnboardingStep } from './onboarding-steps.js';

/**
 * Onboarding steps the database can tell are done, each with the query that finds when it first
 * happened. A new derivable step is one more entry here and in the step list of the control plane.
 */
const firstOccurrence = {
  /** The organisation's first API key. */
  create_api_key: (org: SQL) => sql`(SELECT min(created_at) FROM api_keys WHERE org_id = ${org})`,
  /** The first request answered (a ledger row under 400, or a decision with outcome ok). */
  first_request: (org: SQL) =>
    sql`LEAST((SELECT min(created_at) FROM usage_events WHERE org_id = ${org} AND status < 400), (SELECT min(created_at) FROM routing_decisions WHERE org_id = ${org} AND outcome = 'ok'))`,
  /** The first answer served from the cache (exact or semantic). */
  first_cache_hit: (org: SQL) =>
    sql`LEAST((SELECT min(created_at) FROM usage_events WHERE org_id = ${org} AND cache_hit), (SELECT min(created_at) FROM routing_decisions WHERE org_id = ${org} AND source = 'CacheHit'))`,
  /** The first of the organisation's own provider keys (BYOK). */
  add_provider_key: (org: SQL) => sql`(SELECT min(created_at) FROM org_provider_keys WHERE org_id = ${org})`,
  /** The first service-level objective. */
  create_slo: (org: SQL) => sql`(SELECT min(created_at) FROM slos WHERE org_id = ${org})`,
  /** Output verification defaults stored. */
  configure_output: (org: SQL) => sql`(SELECT created_at FROM org_output_configs WHERE org_id = ${org})`,
  /** The first passkey a dashboard user of the organisation registered. */
  register_passkey: (org: SQL) =>
    sql`(SELECT min(p.created_at) FROM passkeys p JOIN dashboard_users u ON u.id = p.user_id WHERE u.org_id = ${org})`,
} satisfies Record<DerivedOnboardingStep, (org: SQL) => SQL>;

export type OnboardingSource = 'derived' | 'manual';

export interface OnboardingCompletion {
  step: string;
  source: OnboardingSource;
  completedAt: Date;
}

/** Each organisation's onboarding: completions kept, and the derivation queries. */
export interface OnboardingRepository {
  /** The organisation's recorded completions, oldest first. */
  completed(orgId: string): Promise<OnboardingCompletion[]>;
  /** When each of `steps` first happened for the organisation (null: not yet), in one query. */
  firstOccurrences(orgId: string, steps: readonly DerivedOnboardingStep[]): Promise<Partial<Record<DerivedOnboardingStep, Date | null>>>;
  /** Records completions; a step already recorded keeps its first completion. Rejects when the organisation does not exist. */
  record(orgId: string, completions: readonly OnboardingCompletion[]): Promise<void>;
  /** Forgets a manual completion; false when there was none. */
  unmark(orgId: string, step: string): Promise<boolean>;
}

export function createOnboardingRepository(db: Drizzle): OnboardingRepository {
  return {
    async completed(orgId) {
      if (!isUuid(orgId)) return [];
      const rows = await db.select().from(onboardingSteps).where(eq(onboardingSteps.orgId, orgId)).orderBy(asc(onboardingSteps.completedAt), asc(onboardingSteps.step));
      return rows.map((row) => ({ step: row.step, source: row.source, completedAt: row.completedAt }));
    },

    async firstOccurrences(orgId, steps) {
      if (steps.length === 0 || !isUuid(orgId)) return Object.fromEntries(steps.map((step) => [step, null]));
      const org = sql`${orgId}::uuid`;
      // Epoch milliseconds: both drivers hand back a plain number.
      const columns = steps.map((step) => sql`(extract(epoch FROM ${firstOccurrence[step](org)}) * 1000)::float8 AS ${sql.identifier(step)}`);
      const [row] = rowsOf(await db.execute(sql`SELECT ${sql.join(columns, sql`, `)}`)) as Record<string, unknown>[];
      return Object.fromEntries(steps.map((step) => [step, row?.[step] === null || row?.[step] === undefined ? null : new Date(Number(row[step]))]));
    },

    async record(orgId, completions) {
      if (completions.length === 0) return;
      await db
        .insert(onboardingSteps)
        .values(completions.map((entry) => ({ orgId, step: entry.step, source: entry.source, completedAt: entry.completedAt })))
        .onConflictDoNothing({ target: [onboardingSteps.orgId, onboardingSteps.step] });
    },

    async unmark(orgId, step) {
      if (!isUuid(orgId)) return false;
      const rows = await db
        .delete(onboardingSteps)
        .where(and(eq(onboardingSteps.orgId, orgId), eq(onboardingSteps.step, step), eq(onboardingSteps.source, 'manual')))
        .returning({ step: onboardingSteps.step });
      return rows.length > 0;
    },
  };
}
