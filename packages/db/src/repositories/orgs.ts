import type { IntelligenceMode } from '@svc/core';
import { intelligenceModes } from '@svc/core';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { toDbError } from '../errors.js';
import { organizations } from '../schema/organizations.js';
import type { NewOrganization, OrganizationPatch, OrganizationRecord } from '../types.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { type Page, type PageRequest, afterRow, toPage } from './keyset-page.js';

/** Organisations (tenants). */
export interface OrgRepository {
  /** Creates an organisation. Throws DbConflictError when the name is taken. */
  create(input: NewOrganization): Promise<OrganizationRecord>;
  /** Undefined when no organisation has this id (including malformed ids). */
  get(id: string): Promise<OrganizationRecord | undefined>;
  /** Of `ids`, those an organisation has (malformed ones never), in one query. */
  existing(ids: readonly string[]): Promise<Set<string>>;
  getByName(name: string): Promise<OrganizationRecord | undefined>;
  /** All organisations, oldest first. */
  list(): Promise<OrganizationRecord[]>;
  /** One page of the organisations in `(created_at, id)` order (`after` an organisation id). */
  page(request: PageRequest): Promise<Page<OrganizationRecord>>;
  /**
   * Applies the given fields; undefined when the id is unknown. Throws DbConflictError when
   * renaming onto a taken name.
   */
  update(id: string, patch: OrganizationPatch): Promise<OrganizationRecord | undefined>;
  /** Returns the organisation with this name, creating it (plan `free`) if missing. Race-safe. */
  ensure(name: string): Promise<OrganizationRecord>;
}

type OrgRow = typeof organizations.$inferSelect;
type OrgInsert = typeof organizations.$inferInsert;

function toIntelligenceMode(value: string | null): IntelligenceMode | null {
  return intelligenceModes.find((mode) => mode === value) ?? null;
}

export function toOrganization(row: OrgRow): OrganizationRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    rpmLimit: row.rpmLimit,
    tpmLimit: row.tpmLimit,
    monthlyBudgetUsd: row.monthlyBudgetUsd,
    tokenQuota: row.tokenQuota,
    defaultIntelligenceMode: toIntelligenceMode(row.defaultIntelligenceMode),
    freeModelsOnly: row.freeModelsOnly,
    passThroughModels: row.passThroughModels,
    memoryScope: row.memoryScope === 'organization' ? 'organization' : 'end_user',
    modelAccess: row.modelAccess ?? null,
    guardrails: row.guardrails ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Only the keys present in the patch, so `undefined` leaves columns alone. */
function toColumns(patch: OrganizationPatch): Partial<OrgInsert> {
  const columns: Partial<OrgInsert> = {};
  if (patch.name !== undefined) columns.name = patch.name;
  if (patch.plan !== undefined) columns.plan = patch.plan;
  if (patch.rpmLimit !== undefined) columns.rpmLimit = patch.rpmLimit;
  if (patch.tpmLimit !== undefined) columns.tpmLimit = patch.tpmLimit;
  if (patch.monthlyBudgetUsd !== undefined) columns.monthlyBudgetUsd = patch.monthlyBudgetUsd;
  if (patch.tokenQuota !== undefined) columns.tokenQuota = patch.tokenQuota;
  if (patch.defaultIntelligenceMode !== undefined) columns.defaultIntelligenceMode = patch.defaultIntelligenceMode;
  if (patch.freeModelsOnly !== undefined) columns.freeModelsOnly = patch.freeModelsOnly;
  if (patch.passThroughModels !== undefined) columns.passThroughModels = patch.passThroughModels;
  if (patch.memoryScope !== undefined) columns.memoryScope = patch.memoryScope;
  if (patch.modelAccess !== undefined) columns.modelAccess = patch.modelAccess;
  if (patch.guardrails !== undefined) columns.guardrails = patch.guardrails;
  return columns;
}

async function pageOrgs(db: Drizzle, { after, limit }: PageRequest): Promise<Page<OrganizationRecord>> {
  if (after !== undefined && !isUuid(after)) return { data: [], hasMore: false };
  const query = db.select().from(organizations);
  const rows = await (after === undefined ? query : query.where(afterRow({ table: organizations, createdAt: organizations.createdAt, id: organizations.id }, after)))
    .orderBy(asc(organizations.createdAt), asc(organizations.id))
    .limit(limit + 1);
  return toPage(rows.map(toOrganization), limit);
}

/** Of `ids`, those an organisation has, in one query (malformed ids never reach it). */
async function existingIds(db: Drizzle, ids: readonly string[]): Promise<Set<string>> {
  const wellFormed = [...new Set(ids.filter(isUuid))];
  if (wellFormed.length === 0) return new Set();
  const rows = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, wellFormed));
  return new Set(rows.map((row) => row.id));
}

async function orgByName(db: Drizzle, name: string): Promise<OrganizationRecord | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.name, name)).limit(1);
  return row ? toOrganization(row) : undefined;
}

export function createOrgRepository(db: Drizzle): OrgRepository {
  const getByName = (name: string) => orgByName(db, name);

  return {
    async create(input) {
      try {
        const [row] = await db
          .insert(organizations)
          .values({ ...toColumns(input), name: input.name })
          .returning();
        return toOrganization(row!);
      } catch (error) {
        throw toDbError(error, `organization name already exists: ${input.name}`);
      }
    },

    async get(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
      return row ? toOrganization(row) : undefined;
    },

    getByName,

    existing: (ids) => existingIds(db, ids),

    async list() {
      const rows = await db.select().from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.name));
      return rows.map(toOrganization);
    },

    page: (request) => pageOrgs(db, request),
    async update(id, patch) {
      if (!isUuid(id)) return undefined;
      try {
        const [row] = await db
          .update(organizations)
          .set({ ...toColumns(patch), updatedAt: sql`now()` })
          .where(eq(organizations.id, id))
          .returning();
        return row ? toOrganization(row) : undefined;
      } catch (error) {
        throw toDbError(error, `organization name already exists: ${patch.name ?? ''}`);
      }
    },

    async ensure(name) {
      const [row] = await db
        .insert(organizations)
        .values({ name })
        .onConflictDoNothing({ target: organizations.name })
        .returning();
      if (row) return toOrganization(row);
      const existing = await getByName(name);
      if (!existing) throw new Error(`organization ${name} vanished while being ensured`);
      return existing;
    },
  };
}
