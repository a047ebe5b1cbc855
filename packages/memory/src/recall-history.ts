import type { VectorMatch } from '@svc/semantic';
import type { MemoryParts } from './memory-parts.js';
import { MEMORY_HISTORY_SCOPE, MEMORY_SCOPE } from './memory-points.js';
import type { RecallScope } from './memory-scope.js';

/** Links of a supersession chain followed at most (a fact corrected more often than this is found through its newer wordings). */
const MAX_HOPS = 16;
/** Facts of one subject read when a chain is followed: its facts in force and its history. */
const SUBJECT_FACTS = 500;

/** A candidate of a recall as this rule lifts it: its id, its similarity and its relevance. */
interface Lifted {
  id: string;
  relevance: number;
  similarity?: number;
  score: number;
}

/** The id of the fact that replaced a history point, if it carries one. */
function successorOf(payload: VectorMatch['payload']): string | undefined {
  const next = payload.meta?.supersededBy;
  return typeof next === 'string' ? next : undefined;
}

/** The fact in force at the end of `id`'s chain: undefined when a link is gone (a retraction, a forgotten fact). */
function inForce(start: string | undefined, history: ReadonlyMap<string, VectorMatch>, force: ReadonlyMap<string, VectorMatch>): VectorMatch | undefined {
  let id = start;
  for (let hop = 0; id !== undefined && hop < MAX_HOPS; hop++) {
    const current = force.get(id);
    if (current) return current;
    const older = history.get(id);
    id = older ? successorOf(older.payload) : undefined;
  }
  return undefined;
}

/** Every point of the subject in `scope`, by id (the query vector only orders them). */
async function subjectPoints(parts: MemoryParts, request: { scope: RecallScope; vector: Float32Array }, scope: string): Promise<Map<string, VectorMatch>> {
  const { orgId, subject } = request.scope;
  const matches = await parts.vectors.search(request.vector, { orgId, scope, ...(subject !== undefined ? { subject } : {}), limit: SUBJECT_FACTS, minScore: -1 });
  return new Map(matches.map((m) => [m.id, m]));
}

/**
 * Recall through history: a superseded fact the request matches (it would have been recalled
 * before the correction) lends its relevance to the fact now in force at the end of its chain.
 * The old wording often matches a question better than the new one ("What is my job?" and "I work
 * as a nurse" against "I now teach kids"); the old fact itself is never returned, and a chain a
 * retraction ended lends nothing. `toCandidates` scores matches as recall does (cues, scope, retention).
 * Only the relevance (and the score reported) is lent: the fact keeps its own similarity, which the
 * recall-time correction rules read as how near the fact itself is (a lifted change given the old
 * wording's similarity stood in for other facts of the request: docs/memory.md, twelfth pass).
 */
export async function liftedThroughHistory<C extends Lifted>(
  parts: MemoryParts,
  request: { scope: RecallScope; vector: Float32Array; minScore: number },
  candidates: readonly C[],
  toCandidates: (matches: readonly VectorMatch[]) => C[],
): Promise<C[]> {
  const { orgId, subject } = request.scope;
  const hits = await parts.vectors.search(request.vector, { orgId, scope: MEMORY_HISTORY_SCOPE, ...(subject !== undefined ? { subject } : {}), limit: 24, minScore: request.minScore });
  const old = toCandidates(hits);
  if (old.length === 0) return [...candidates];
  const [history, force] = await Promise.all([subjectPoints(parts, request, MEMORY_HISTORY_SCOPE), subjectPoints(parts, request, MEMORY_SCOPE)]);
  const hitById = new Map(hits.map((h) => [h.id, h]));
  const byId = new Map(candidates.map((c) => [c.id, c]));
  for (const was of old) {
    const target = inForce(successorOf(hitById.get(was.id)!.payload), history, force);
    const now = target && (byId.get(target.id) ?? toCandidates([target])[0]);
    if (!now || now.relevance >= was.relevance) continue;
    byId.set(now.id, { ...now, relevance: was.relevance, score: was.score });
  }
  return [...byId.values()].sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0));
}
