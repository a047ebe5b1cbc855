import { randomUUID } from 'node:crypto';
import { createMemoryStore, type MemoryStore } from '@svc/memory';
import type { Embedder } from '@svc/semantic';
import type { RuntimeBase } from './runtime-base.js';
import { vectorStoreFor } from './vector-store.js';

/** Channel on which an instance tells the others which facts it forgot (their in-process index drops them). */
const FORGET_CHANNEL = 'memory:forget';
/** How often expired facts are deleted from the table (their vectors expire by themselves). */
const SWEEP_MS = 3_600_000;

/** The memory of intelligence mode `full`: a store whose deletions reach every instance. */
export interface MemoryService {
  store: MemoryStore;
  /** Rebuilds the in-process index from the table, listens for other instances' deletions, starts the retention sweep. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Facts to drop from every index; `from` names the instance that sent it (it ignores its own). */
type ForgetMessage = ({ orgId: string; ids: string[] } | { orgId: string; subject: string }) & { from?: string };

function parseForget(message: string): ForgetMessage | undefined {
  try {
    const value: unknown = JSON.parse(message);
    if (typeof value !== 'object' || value === null || !('orgId' in value) || typeof value.orgId !== 'string') return undefined;
    const from = 'from' in value && typeof value.from === 'string' ? { from: value.from } : {};
    if ('subject' in value && typeof value.subject === 'string') return { orgId: value.orgId, subject: value.subject, ...from };
    if ('ids' in value && Array.isArray(value.ids) && value.ids.every((id) => typeof id === 'string')) return { orgId: value.orgId, ids: value.ids, ...from };
    return undefined;
  } catch {
    return undefined;
  }
}

type MemoryBase = Pick<RuntimeBase, 'env' | 'db' | 'kv' | 'logger'>;

/** Tells the other instances which facts to drop from their index. */
function announcer({ kv, logger }: MemoryBase, from: string): (message: ForgetMessage) => Promise<void> {
  return (message) =>
    kv.publish(FORGET_CHANNEL, JSON.stringify({ ...message, from })).catch((error: unknown) => logger.warn({ err: error }, 'memory: could not tell other instances about a deletion'));
}

/** `inner` whose deletions are announced on the kv's bus, so other instances drop them from their index. */
function announcingForgets(inner: MemoryStore, announce: (message: ForgetMessage) => Promise<void>): MemoryStore {
  return {
    ...inner,
    async forget(orgId, ids) {
      const deleted = await inner.forget(orgId, ids);
      if (deleted.length > 0) await announce({ orgId, ids: deleted });
      return deleted;
    },
    async forgetSubject(orgId, subject) {
      const deleted = await inner.forgetSubject(orgId, subject);
      await announce({ orgId, subject });
      return deleted;
    },
  };
}

/**
 * Memory over the database's `memories` table and a vector store of its own: a Qdrant collection
 * `svc_memory_<embedder>` when `QDRANT_URL` is set (never the semantic cache's collection), else an
 * in-process index rebuilt from the table at start (facts keep their vectors in their row). A
 * forget on one instance reaches the others through the kv's bus.
 */
export function createMemoryService(base: MemoryBase, embedder: Embedder): MemoryService {
  const { env, db, kv, logger } = base;
  // Memory's own collection, never the semantic cache's; in process, rebuilt from the table at start.
  const vectors = vectorStoreFor(base, embedder, {
    capacity: env.SVC_MEMORY_MAX_ENTRIES,
    collection: `svc_memory_${embedder.id.replace(/[^A-Za-z0-9_-]/g, '_')}`,
    what: 'memory vector store',
  });
  // A correction or retraction on this instance retires facts other instances may still hold in their index.
  const instance = randomUUID();
  const announce = announcer(base, instance);
  const inner = createMemoryStore({
    records: db.memories,
    onRetired: (orgId, ids) => void announce({ orgId, ids }),
    vectors,
    embedder,
    ttlDays: env.SVC_MEMORY_TTL_DAYS,
    // Never the error's text alone: a driver message can quote the statement's values.
    onError: (error) => logger.warn({ err: { name: (error as Error)?.name, code: (error as { code?: unknown })?.code } }, 'memory store failed; the facts are not remembered'),
  });
  let unsubscribe: (() => Promise<void>) | undefined;
  let sweep: NodeJS.Timeout | undefined;
  return {
    store: announcingForgets(inner, announce),
    async start() {
      unsubscribe = await kv.subscribe(FORGET_CHANNEL, (message) => {
        const forget = parseForget(message);
        // Its own announcements are done already here (and a superseded fact's history may still be queued).
        if (forget && forget.from !== instance) void inner.evict(forget.orgId, 'ids' in forget ? { ids: forget.ids } : { subject: forget.subject }).catch(() => undefined);
      });
      const loaded = await inner.hydrate(env.SVC_MEMORY_MAX_ENTRIES).catch((error: unknown) => {
        logger.warn({ err: error }, 'memory: could not rebuild the index from the table; recall starts empty');
        return 0;
      });
      if (loaded > 0) logger.info({ facts: loaded }, 'memory index rebuilt from the table');
      sweep = setInterval(() => {
        inner.expire().catch((error: unknown) => logger.warn({ err: error }, 'memory retention sweep failed'));
      }, SWEEP_MS);
      sweep.unref();
      await inner.expire().catch(() => 0);
    },
    async close() {
      if (sweep) clearInterval(sweep);
      await unsubscribe?.();
      await inner.idle();
      await vectors.close();
    },
  };
}
