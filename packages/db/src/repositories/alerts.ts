import { type AlertKind, type AlertSeverity, alertKinds, alertSeverities } from '@svc/core';
import { type SQL, and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { alerts } from '../schema/alerts.js';
import { clampLimit, type Drizzle, isUuid } from './drizzle.js';

export type AlertStatus = 'firing' | 'resolved';

/** An alert as stored. `orgId` is null for platform-wide alerts (a model's circuit breaker). */
export interface AlertRecord {
  id: string;
  orgId: string | null;
  kind: AlertKind;
  severity: AlertSeverity;
  status: AlertStatus;
  /** At most one firing alert per key: the same condition raised by N instances is one alert. */
  dedupeKey: string;
  /** What it is about: an SLO id, a breaker key, a limit kind. */
  subject: string;
  message: string;
  details: Record<string, unknown>;
  firedAt: Date;
  resolvedAt: Date | null;
}

export type NewAlert = Pick<AlertRecord, 'orgId' | 'kind' | 'severity' | 'dedupeKey' | 'subject' | 'message'> & { details?: Record<string, unknown> };

export interface AlertListOptions {
  /** Alerts of this organisation and the platform-wide ones; absent: every alert. */
  orgId?: string;
  /** One alert by id. */
  id?: string;
  severity?: AlertSeverity;
  status?: AlertStatus;
  /** Defaults to 100, capped at 1000. */
  limit?: number;
}

/** Alerts raised by the evaluator, newest first. */
export interface AlertRepository {
  /**
   * Raises an alert unless one with the same `dedupeKey` is firing: resolves to the new alert,
   * or undefined when it was already firing. Atomic across instances (a partial unique index).
   */
  raise(alert: NewAlert): Promise<AlertRecord | undefined>;
  /**
   * Resolves the firing alert of `dedupeKey`, merging `details` into its details: the resolved
   * alert, or undefined when none was firing (another instance may just have resolved it).
   */
  resolve(dedupeKey: string, details?: Record<string, unknown>): Promise<AlertRecord | undefined>;
  /** Firing alerts, of one kind when given, oldest first. */
  firing(kind?: AlertKind): Promise<AlertRecord[]>;
  list(options?: AlertListOptions): Promise<AlertRecord[]>;
}

type Row = typeof alerts.$inferSelect;

function toRecord(row: Row): AlertRecord {
  return {
    id: row.id,
    orgId: row.orgId,
    kind: alertKinds.find((kind) => kind === row.kind) ?? 'slo_breach',
    severity: alertSeverities.find((severity) => severity === row.severity) ?? 'warning',
    status: row.status,
    dedupeKey: row.dedupeKey,
    subject: row.subject,
    message: row.message,
    details: row.details,
    firedAt: row.firedAt,
    resolvedAt: row.resolvedAt,
  };
}

const firing = sql`status = 'firing'`;

export function createAlertRepository(db: Drizzle): AlertRepository {
  return {
    async raise(alert) {
      const [row] = await db
        .insert(alerts)
        .values({ ...alert, details: alert.details ?? {} })
        .onConflictDoNothing({ target: alerts.dedupeKey, where: firing })
        .returning();
      return row ? toRecord(row) : undefined;
    },

    async resolve(dedupeKey, details = {}) {
      const [row] = await db
        .update(alerts)
        .set({ status: 'resolved', resolvedAt: sql`now()`, details: sql`${alerts.details} || ${JSON.stringify(details)}::jsonb` })
        .where(and(eq(alerts.dedupeKey, dedupeKey), eq(alerts.status, 'firing')))
        .returning();
      return row ? toRecord(row) : undefined;
    },

    async firing(kind) {
      const where = kind === undefined ? eq(alerts.status, 'firing') : and(eq(alerts.status, 'firing'), eq(alerts.kind, kind));
      const rows = await db.select().from(alerts).where(where).orderBy(alerts.firedAt);
      return rows.map(toRecord);
    },

    async list(options = {}) {
      const filters: SQL[] = [];
      if (options.orgId !== undefined) {
        filters.push(isUuid(options.orgId) ? or(eq(alerts.orgId, options.orgId), isNull(alerts.orgId))! : isNull(alerts.orgId));
      }
      if (options.id !== undefined) filters.push(isUuid(options.id) ? eq(alerts.id, options.id) : sql`false`);
      if (options.severity !== undefined) filters.push(eq(alerts.severity, options.severity));
      if (options.status !== undefined) filters.push(eq(alerts.status, options.status));
      const rows = await db
        .select()
        .from(alerts)
        .where(filters.length > 0 ? and(...filters) : undefined)
        .orderBy(desc(alerts.firedAt), desc(alerts.id))
        .limit(clampLimit(options.limit, 100));
      return rows.map(toRecord);
    },
  };
}
