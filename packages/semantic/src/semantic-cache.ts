import type { CachedAnswer, ChatRequest } from '@svc/core';
import { type EligibilityOptions, semanticKeyOf } from './eligibility.js';
import type { Embedder } from './embedder/interface.js';
import { keyTerms, sameKeyTerms } from './entity-guard.js';
import { pointId } from './scope.js';
import type { VectorMatch, VectorStore } from './store/interface.js';
import { calibratedThreshold } from './thresholds.js';

/** What a miss carries so `store` need not embed the question again. Opaque to callers. */
export class SemanticMissKey {
  constructor(
    readonly orgId: string,
    readonly scope: string,
    readonly text: string,
    readonly vector: Float32Array,
  ) {}
}

/** A semantic lookup's outcome (the shape `SemanticCachePort` of @svc/pipeline expects). */
export type SemanticLookup =
  | { hit: true; answer: CachedAnswer; similarity: number }
  | { hit: false; reuse?: SemanticMissKey };

export type SemanticOperation = 'embed' | 'search' | 'upsert';

export interface SemanticCacheSettings {
  embedder: Embedder;
  store: VectorStore;
  /**
   * Lowest cosine similarity that counts as the same question. Default: the calibrated value
   * for `embedder.id` ({@link calibratedThreshold}); required for an embedder without one.
   */
  threshold?: number;
  /** How long an answer stays servable, ms (default 24 h, the spec's `cache_ttl_secs` maximum). */
  ttlMs?: number;
  /**
   * Refuse a hit whose numbers, symbols or names differ from the question's ("capital of
   * France" vs "capital of Spain") (default true).
   */
  keyTermGuard?: boolean;
  /** Nearest entries examined per lookup, best first, until one passes the guard (default 3). */
  candidates?: number;
  /** A lookup (embed + search) that takes longer is a miss, ms (default 250). */
  lookupTimeoutMs?: number;
  eligibility?: EligibilityOptions;
  /**
   * Every embedder or store failure (each one turned into a miss or a skipped store). The
   * gateway maps a failing store to readiness `degraded`.
   */
  onError?: (error: unknown, operation: SemanticOperation) => void;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

export interface SemanticCache {
  readonly embedder: Embedder;
  readonly threshold: number;
  /** Undefined when the request is not eligible; a failure is a miss, never a rejection. */
  lookup(request: ChatRequest, orgId: string): Promise<SemanticLookup | undefined>;
  /** Stores a complete answer; pass the lookup's miss to reuse its embedding. Never rejects. */
  store(request: ChatRequest, orgId: string, answer: CachedAnswer, miss?: SemanticLookup): Promise<void>;
  /** Removes an organisation's entries, or everyone's. Rejects when the store fails (an admin action). */
  purge(orgId?: string): Promise<void>;
  /** Whether the vector store answers (readiness: `degraded` when false). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

class LookupTimeout extends Error {
  constructor(ms: number) {
    super(`semantic lookup took longer than ${ms} ms`);
    this.name = 'LookupTimeout';
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LookupTimeout(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Whether a stored answer fits the request: not longer than the request's token budget. */
function fits(match: VectorMatch, request: ChatRequest): boolean {
  const limit = request.maxTokens;
  const used = match.payload.answer.result.usage?.completionTokens;
  return limit === undefined || used === undefined || used <= limit;
}

/**
 * The semantic cache: answers a request with a stored answer to a question close enough in
 * meaning, asked within the same organisation and scope (model, parameters, system prompt,
 * earlier turns). Eligibility: {@link semanticKeyOf}.
 */
export function createSemanticCache(settings: SemanticCacheSettings): SemanticCache {
  const { embedder, store } = settings;
  const threshold = settings.threshold ?? calibratedThreshold(embedder.id);
  if (threshold === undefined) {
    throw new Error(`no calibrated semantic-cache threshold for embedder ${embedder.id}; calibrate it (pnpm --filter @svc/semantic eval) and pass \`threshold\``);
  }
  if (!(threshold > -1 && threshold <= 1)) throw new RangeError(`threshold must be in (-1, 1], got ${threshold}`);
  const ttlMs = settings.ttlMs ?? 86_400_000;
  const guard = settings.keyTermGuard ?? true;
  const candidates = settings.candidates ?? 3;
  const lookupTimeoutMs = settings.lookupTimeoutMs ?? 250;
  const now = settings.now ?? Date.now;
  const report = (error: unknown, operation: SemanticOperation): void => {
    try {
      settings.onError?.(error, operation);
    } catch {
      // A failing reporter must not turn a miss into a failure.
    }
  };

  async function embedOne(text: string): Promise<Float32Array> {
    const [vector] = await embedder.embed([text]);
    if (!vector || vector.length !== embedder.dimensions) throw new Error(`embedder ${embedder.id} returned no vector of ${embedder.dimensions} dimensions`);
    return vector;
  }

  return {
    embedder,
    threshold,

    async lookup(request, orgId) {
      const key = semanticKeyOf(request, settings.eligibility);
      if (!key) return undefined;
      const started = Date.now();
      let vector: Float32Array;
      try {
        vector = await within(embedOne(key.text), lookupTimeoutMs);
      } catch (error) {
        report(error, 'embed');
        return { hit: false };
      }
      const reuse = new SemanticMissKey(orgId, key.scope, key.text, vector);
      let matches: VectorMatch[];
      try {
        const remaining = Math.max(1, lookupTimeoutMs - (Date.now() - started));
        matches = await within(store.search(vector, { orgId, scope: key.scope, limit: candidates, minScore: threshold }), remaining);
      } catch (error) {
        report(error, 'search');
        return { hit: false, reuse };
      }
      const terms = guard && matches.length > 0 ? keyTerms(key.text) : undefined;
      for (const match of matches) {
        if (match.score < threshold || match.payload.orgId !== orgId || match.payload.scope !== key.scope) continue;
        if (match.payload.expiresAt <= now() || !fits(match, request)) continue;
        if (terms && !sameKeyTerms(terms, keyTerms(match.payload.text))) continue;
        return { hit: true, answer: match.payload.answer, similarity: Math.min(1, match.score) };
      }
      return { hit: false, reuse };
    },

    async store(request, orgId, answer, miss) {
      let reuse = miss && !miss.hit ? miss.reuse : undefined;
      if (!(reuse instanceof SemanticMissKey) || reuse.orgId !== orgId) reuse = undefined;
      let text = reuse?.text;
      let scope = reuse?.scope;
      let vector = reuse?.vector;
      if (!text || !scope || !vector) {
        const key = semanticKeyOf(request, settings.eligibility);
        if (!key) return;
        text = key.text;
        scope = key.scope;
        try {
          vector = await embedOne(text);
        } catch (error) {
          report(error, 'embed');
          return;
        }
      }
      const storedAt = now();
      try {
        await store.upsert([{ id: pointId(orgId, scope, text), vector, payload: { orgId, scope, expiresAt: storedAt + ttlMs, text, answer } }]);
      } catch (error) {
        report(error, 'upsert');
      }
    },

    purge: (orgId) => store.deleteByOrg(orgId),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
