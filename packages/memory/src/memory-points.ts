// How a stored fact travels as a vector point (its record in `meta`, the memory scope, an answer
// slot every store keeps) and back.
import type { CachedAnswer, StoredMemory } from '@svc/core';
import type { VectorPayload } from '@svc/semantic';

export type { StoredMemory };

/** The partition of memory points; the cache's scopes are hashes, so the two never meet even in one store. */
export const MEMORY_SCOPE = 'memory';
/** The partition of superseded facts (history): never recalled themselves, searched to find what replaced them (`recall-history.ts`). */
export const MEMORY_HISTORY_SCOPE = 'memory-history';

/** The answer slot of a memory point: never served (the scope keeps caches away), but shaped like one so every store keeps it. */
function placeholderAnswer(storedAt: number): CachedAnswer {
  const choice = { index: 0, message: { role: 'assistant' as const, content: null }, finishReason: 'stop' as const };
  return { result: { model: 'memory', choices: [choice] }, model: 'memory', provider: 'memory', tier: 'T3', storedAt };
}

/** The record a memory point carries in `meta`. */
export function recordOf(id: string, payload: VectorPayload): StoredMemory | undefined {
  const meta = payload.meta;
  if (!meta || payload.subject === undefined) return undefined;
  const { role, conversationId, entities, createdAt, updatedAt, slot } = meta;
  if (typeof role !== 'string' || !(conversationId === null || typeof conversationId === 'string') || typeof createdAt !== 'number' || typeof updatedAt !== 'number' || !Array.isArray(entities)) return undefined;
  const kept = entities.filter((e): e is { type: string; value: string } => typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.value === 'string');
  return {
    id,
    orgId: payload.orgId,
    subject: payload.subject,
    conversationId,
    role,
    slot: typeof slot === 'string' ? slot : null,
    text: payload.text,
    entities: kept,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
}

/** The attribute the encoder placed a stored fact near (`attribute-classifier.ts`), carried beside its record. */
export function attributeOf(payload: VectorPayload): string | undefined {
  const attribute = payload.meta?.attribute;
  return typeof attribute === 'string' ? attribute : undefined;
}

export function pointOf(record: StoredMemory, vector: Float32Array, ttlMs: number, attribute?: string) {
  const meta = {
    role: record.role,
    conversationId: record.conversationId,
    entities: record.entities,
    slot: record.slot,
    createdAt: record.createdAt.getTime(),
    updatedAt: record.updatedAt.getTime(),
    ...(attribute !== undefined ? { attribute } : {}),
  };
  const payload: VectorPayload = {
    orgId: record.orgId,
    scope: MEMORY_SCOPE,
    subject: record.subject,
    expiresAt: record.updatedAt.getTime() + ttlMs,
    text: record.text,
    answer: placeholderAnswer(record.updatedAt.getTime()),
    meta,
  };
  return { id: record.id, vector, payload };
}

/** A superseded fact's point: in the history partition, naming the fact that replaced it. */
export function historyPointOf(point: ReturnType<typeof pointOf>, supersededBy: string) {
  return { ...point, payload: { ...point.payload, scope: MEMORY_HISTORY_SCOPE, meta: { ...point.payload.meta, supersededBy } } };
}
