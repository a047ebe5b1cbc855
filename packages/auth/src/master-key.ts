import { randomId } from '@svc/core';
import { hashApiKey } from './api-key.js';
import type { ApiKeyRecord, AuthStore } from './store.js';

/** How master keys are rotated. */
export interface MasterKeyRotation {
  /**
   * How long a superseded master key keeps working, ms (`SVC_MASTER_KEY_GRACE_SECS`): 0 revokes
   * it at once; more lets instances still running on it finish a rolling restart.
   */
  graceMs: number;
  now: () => number;
}

/** A previous master key this call revoked (`until` null) or left working until `until`. */
export interface SupersededKey {
  id: string;
  until: Date | null;
}

export interface MasterKeyOutcome {
  /** The master key this process runs with. */
  record: ApiKeyRecord;
  created: boolean;
  superseded: SupersededKey[];
  /** Set when this process runs on a key a newer one superseded: it works until then. */
  graceUntil: Date | null;
}

/**
 * Why SVC_MASTER_KEY cannot be used (a newer master key superseded it, its grace ended, or it is an
 * ordinary API key): the message completes "SVC_MASTER_KEY ...".
 */
export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/** A fresh master key for `svc master-key rotate`: 40 random base62 characters (238 bits). */
export function generateMasterKey(): string {
  return `sk-svc-master-${randomId(40)}`;
}

type Issue = (secret: string) => Promise<ApiKeyRecord>;

const isNewer = (a: ApiKeyRecord, b: ApiKeyRecord) => a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);
const at = (date: Date) => date.toISOString();

/**
 * Makes `secret` the master key in force, at start (SVC_MASTER_KEY). The newest master key wins:
 * older ones still active are superseded (revoked, or left working for the grace period), and a
 * key that a newer one superseded is refused once its grace has ended, so an instance started with
 * an old SVC_MASTER_KEY cannot bring it back. Idempotent across restarts and instances.
 *
 * @throws MasterKeyError naming why the key cannot be used.
 */
export async function ensureMaster(store: AuthStore, issue: Issue, secret: string, rotation: MasterKeyRotation): Promise<MasterKeyOutcome> {
  const found = (await store.keys.findByHash(hashApiKey(secret)))?.key;
  if (found && found.kind !== 'master') throw new MasterKeyError(`is the ordinary API key ${found.id}, not a master key: choose a new master key`);
  const record = found ?? (await issue(secret));
  const now = rotation.now();
  if (record.status === 'revoked') throw new MasterKeyError(`was replaced by a newer master key and revoked at ${record.revokedAt ? at(record.revokedAt) : 'an earlier start'}: set the current master key, or a new one`);
  if (record.expiresAt !== null && record.expiresAt.getTime() <= now) {
    throw new MasterKeyError(`was replaced by a newer master key and its grace period ended at ${at(record.expiresAt)}: set the current master key, or a new one`);
  }
  const others = (await store.keys.listMasters()).filter((key) => key.id !== record.id && key.status === 'active');
  const until = rotation.graceMs > 0 ? new Date(now + rotation.graceMs) : null;
  const newer = others.find((key) => isNewer(key, record) && key.expiresAt === null);
  if (newer) {
    // Started with the previous key after a rotation: it is superseded here too.
    const kept = await store.keys.supersede(record.id, until);
    if (!kept || kept.status === 'revoked' || kept.expiresAt === null) {
      throw new MasterKeyError(`was replaced by a newer master key (${newer.id}, made at ${at(newer.createdAt)}) and is now revoked: set the current master key`);
    }
    return { record: kept, created: false, superseded: [{ id: kept.id, until: kept.expiresAt }], graceUntil: kept.expiresAt };
  }
  const superseded = await supersedeAll(store, others, { until, now });
  return { record, created: found === undefined, superseded, graceUntil: record.expiresAt };
}

/**
 * Issues a new master key and supersedes every other (`svc master-key rotate`). The secret is
 * returned once: the operator sets SVC_MASTER_KEY to it before the next restart.
 */
export async function rotateMaster(store: AuthStore, issue: Issue, rotation: MasterKeyRotation): Promise<{ secret: string; record: ApiKeyRecord; superseded: SupersededKey[] }> {
  const secret = generateMasterKey();
  const record = await issue(secret);
  const now = rotation.now();
  const others = (await store.keys.listMasters()).filter((key) => key.id !== record.id && key.status === 'active');
  const superseded = await supersedeAll(store, others, { until: rotation.graceMs > 0 ? new Date(now + rotation.graceMs) : null, now });
  return { secret, record, superseded };
}

/** Supersedes master keys without an expiry (a grace already granted is kept) and revokes those whose grace has ended. */
async function supersedeAll(store: AuthStore, keys: readonly ApiKeyRecord[], settings: { until: Date | null; now: number }): Promise<SupersededKey[]> {
  const out: SupersededKey[] = [];
  for (const key of keys) {
    const ended = key.expiresAt !== null && key.expiresAt.getTime() <= settings.now;
    if (key.expiresAt !== null && !ended) continue;
    const changed = await store.keys.supersede(key.id, ended ? null : settings.until);
    if (changed) out.push({ id: changed.id, until: changed.status === 'revoked' ? null : changed.expiresAt });
  }
  return out;
}
