import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { toDbError } from '../errors.js';
import { apiKeys } from '../schema/api-keys.js';
import { orgOutputConfigs } from '../schema/org-output-configs.js';
import { organizations } from '../schema/organizations.js';
import type { ApiKeyPatch, ApiKeyRecord, NewApiKey, OrganizationRecord } from '../types.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { type Page, type PageRequest, afterRow, toPage } from './keyset-page.js';
import { toOrganization } from './orgs.js';
import { toOutputConfig } from './output-configs.js';

/** API keys (hashed). */
export interface KeyRepository {
  /** Stores a key. Throws DbConflictError when the id or hash already exists. */
  create(input: NewApiKey): Promise<ApiKeyRecord>;
  /**
   * The key with this SHA-256 hex digest and its organisation (with its output config, null when
   * it has none), in one round trip (auth path). Revoked and expired keys are returned too, so the
   * caller can say why they fail.
   */
  findByHash(keyHash: string): Promise<{ key: ApiKeyRecord; org: OrganizationRecord } | undefined>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  /** Keys of one organisation, or of all when orgId is omitted; oldest first. */
  list(orgId?: string): Promise<ApiKeyRecord[]>;
  /** One page of {@link list} (`after` a key id). */
  page(request: PageRequest & { orgId?: string | undefined }): Promise<Page<ApiKeyRecord>>;
  /** Every master key (SVC_MASTER_KEY), current and superseded, oldest first. */
  listMasters(): Promise<ApiKeyRecord[]>;
  /**
   * Supersedes an active key: revoked now (`until` null), or left working until `until` (a grace
   * period; an expiry already set is kept). Undefined for unknown ids.
   */
  supersede(id: string, until: Date | null): Promise<ApiKeyRecord | undefined>;
  /** Changes a key's name or its own limits (null clears one). Undefined for unknown ids. */
  update(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | undefined>;
  /** Marks the key revoked. Idempotent: the first `revokedAt` is kept. Undefined for unknown ids. */
  revoke(id: string): Promise<ApiKeyRecord | undefined>;
  /** Sets `lastUsedAt` to now. Never rejects (resolves false on failure), so it can be left unawaited. */
  touch(id: string): Promise<boolean>;
}

type KeyRow = typeof apiKeys.$inferSelect;

function toApiKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    keyHash: row.keyHash,
    keyPrefix: row.keyPrefix,
    kind: row.kind,
    scopes: [...row.scopes],
    status: row.status,
    expiresAt: row.expiresAt,
    rpmLimit: row.rpmLimit,
    tpmLimit: row.tpmLimit,
    monthlyBudgetUsd: row.monthlyBudgetUsd,
    modelAccess: row.modelAccess ?? null,
    guardrails: row.guardrails ?? null,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

async function insertKey(db: Drizzle, input: NewApiKey): Promise<ApiKeyRecord> {
  try {
    const [row] = await db
      .insert(apiKeys)
      .values({
        id: input.id,
        orgId: input.orgId,
        name: input.name ?? null,
        keyHash: input.keyHash,
        keyPrefix: input.keyPrefix,
        kind: input.kind ?? 'standard',
        scopes: [...input.scopes],
        expiresAt: input.expiresAt ?? null,
        rpmLimit: input.rpmLimit ?? null,
        tpmLimit: input.tpmLimit ?? null,
        monthlyBudgetUsd: input.monthlyBudgetUsd ?? null,
        modelAccess: input.modelAccess ?? null,
        guardrails: input.guardrails ?? null,
      })
      .returning();
    return toApiKey(row!);
  } catch (error) {
    throw toDbError(error, `api key already exists: ${input.id}`);
  }
}

async function findKeyByHash(db: Drizzle, keyHash: string): ReturnType<KeyRepository['findByHash']> {
  const [row] = await db
    .select({ key: apiKeys, org: organizations, output: orgOutputConfigs })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.orgId))
    .leftJoin(orgOutputConfigs, eq(orgOutputConfigs.orgId, apiKeys.orgId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  if (!row) return undefined;
  return { key: toApiKey(row.key), org: { ...toOrganization(row.org), outputConfig: row.output ? toOutputConfig(row.output) : null } };
}

async function pageKeys(db: Drizzle, { orgId, after, limit }: PageRequest & { orgId?: string | undefined }): Promise<Page<ApiKeyRecord>> {
  if (orgId !== undefined && !isUuid(orgId)) return { data: [], hasMore: false };
  const where = and(orgId === undefined ? undefined : eq(apiKeys.orgId, orgId), after === undefined ? undefined : afterRow({ table: apiKeys, createdAt: apiKeys.createdAt, id: apiKeys.id }, after));
  const rows = await db.select().from(apiKeys).where(where).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)).limit(limit + 1);
  return toPage(rows.map(toApiKey), limit);
}

async function getKey(db: Drizzle, id: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row ? toApiKey(row) : undefined;
}

async function revokeKey(db: Drizzle, id: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ status: 'revoked', revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(eq(apiKeys.id, id))
    .returning();
  return row ? toApiKey(row) : undefined;
}

/** Sets the expiry of an active key that has none (a grace period); a key already superseded is left as it is. */
async function supersedeWithGrace(db: Drizzle, id: string, until: Date): Promise<ApiKeyRecord | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ expiresAt: until })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.status, 'active'), isNull(apiKeys.expiresAt)))
    .returning();
  return row ? toApiKey(row) : getKey(db, id);
}

export function createKeyRepository(db: Drizzle): KeyRepository {
  return {
    create: (input) => insertKey(db, input),

    findByHash: (keyHash) => findKeyByHash(db, keyHash),

    get: (id) => getKey(db, id),

    async list(orgId) {
      if (orgId !== undefined && !isUuid(orgId)) return [];
      const query = db.select().from(apiKeys);
      const rows = await (orgId === undefined ? query : query.where(eq(apiKeys.orgId, orgId))).orderBy(
        asc(apiKeys.createdAt),
        asc(apiKeys.id),
      );
      return rows.map(toApiKey);
    },

    page: (request) => pageKeys(db, request),
    listMasters: async () => (await db.select().from(apiKeys).where(eq(apiKeys.kind, 'master')).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))).map(toApiKey),
    supersede: (id, until) => (until === null ? revokeKey(db, id) : supersedeWithGrace(db, id, until)),
    async update(id, patch) {
      const set: Partial<typeof apiKeys.$inferInsert> = {};
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.rpmLimit !== undefined) set.rpmLimit = patch.rpmLimit;
      if (patch.tpmLimit !== undefined) set.tpmLimit = patch.tpmLimit;
      if (patch.monthlyBudgetUsd !== undefined) set.monthlyBudgetUsd = patch.monthlyBudgetUsd;
      if (patch.modelAccess !== undefined) set.modelAccess = patch.modelAccess;
      if (patch.guardrails !== undefined) set.guardrails = patch.guardrails;
      if (Object.keys(set).length === 0) return this.get(id);
      const [row] = await db.update(apiKeys).set(set).where(eq(apiKeys.id, id)).returning();
      return row ? toApiKey(row) : undefined;
    },

    revoke: (id) => revokeKey(db, id),

    async touch(id) {
      try {
        const rows = await db
          .update(apiKeys)
          .set({ lastUsedAt: sql`now()` })
          .where(eq(apiKeys.id, id))
          .returning({ id: apiKeys.id });
        return rows.length > 0;
      } catch {
        return false;
      }
    },
  };
}
