import { type OutputConfig, type OutputVerification, outputVerificationDefaults } from '@svc/core';
import { eq, sql } from 'drizzle-orm';
import { orgOutputConfigs } from '../schema/org-output-configs.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** An organisation's stored output verification defaults. */
export interface OutputConfigRecord extends OutputConfig {
  orgId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Each organisation's output verification defaults (`/v1/output/config`). */
export interface OutputConfigRepository {
  /** The stored config; undefined when the organisation never stored one (it runs on the defaults). */
  get(orgId: string): Promise<OutputConfigRecord | undefined>;
  /** Stores the whole config, replacing any previous one. Rejects when the organisation does not exist. */
  put(orgId: string, config: OutputConfig): Promise<OutputConfigRecord>;
}

type Row = typeof orgOutputConfigs.$inferSelect;

function toVerification(value: string): OutputVerification | 'auto' {
  return outputVerificationDefaults.find((mode) => mode === value) ?? 'auto';
}

/** The config of a row (also read by the key lookup, which joins it to the caller's organisation). */
export function toOutputConfig(row: Row): OutputConfig {
  return {
    outputVerification: toVerification(row.outputVerification),
    healing: row.healing,
    minConfidence: row.minConfidence,
    maxReasks: row.maxReasks,
    crossModelCandidate: row.crossModelCandidate,
  };
}

function toRecord(row: Row): OutputConfigRecord {
  return { orgId: row.orgId, ...toOutputConfig(row), createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function createOutputConfigRepository(db: Drizzle): OutputConfigRepository {
  return {
    async get(orgId) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select().from(orgOutputConfigs).where(eq(orgOutputConfigs.orgId, orgId)).limit(1);
      return row ? toRecord(row) : undefined;
    },

    async put(orgId, config) {
      const values = {
        outputVerification: config.outputVerification,
        healing: config.healing,
        minConfidence: config.minConfidence,
        maxReasks: config.maxReasks,
        crossModelCandidate: config.crossModelCandidate,
      };
      const [row] = await db
        .insert(orgOutputConfigs)
        .values({ orgId, ...values })
        .onConflictDoUpdate({ target: orgOutputConfigs.orgId, set: { ...values, updatedAt: sql`now()` } })
        .returning();
      return toRecord(row!);
    },
  };
}
