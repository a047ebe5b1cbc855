import { NEIGHBOURS, type MemoryParts } from './memory-parts.js';
import { attributeOf, MEMORY_SCOPE, type StoredMemory, recordOf } from './memory-points.js';
import type { RecallScope } from './memory-scope.js';
import { withChangesStandingIn, withoutReplaced } from './recall-conflicts.js';
import { liftedThroughHistory } from './recall-history.js';
import { clearlyNearest } from './recall-nearest.js';
import { ownedNearest } from './recall-owned.js';
import type { VectorMatch } from '@svc/semantic';
import { cueBonus, cueHits, maxCueBonus, type RecallCues, recallCues } from './recall-cues.js';
import { type RerankCandidate, rerankFeatures } from './recall-features.js';
import { RECALL_CUE_WEIGHTS, type RecallFloors, refersToUser } from './recall-threshold.js';

export interface RecalledMemory extends StoredMemory {
  /**
   * Relevance to the request, at most 1: the cosine similarity plus the bonus for cues the fact
   * shares with it (`recall-cues.ts`). What the floor is compared with and what ranks.
   */
  score: number;
  /** The cosine similarity alone, -1..1. */
  similarity?: number;
  /** The features a re-ranker would read of this fact (with `features`: evaluations, `memory:rerank`). */
  features?: { values: number[] };
}

export interface RecallOptions {
  /** Most memories returned (default 5). */
  limit?: number;
  /** Lowest similarity returned; default: the floor calibrated for the embedder (see {@link RecallFloors}). */
  minSimilarity?: number;
  /** The query's vector when the caller has it already (one embedding per request). */
  vector?: Float32Array;
  /** Add the cue bonus to the similarity (default true); false ranks by similarity alone (evaluations' baseline). */
  cues?: boolean;
  /** Report the re-ranker's features of the nearest facts (evaluations; needs the cues). */
  features?: boolean;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** How recall judges: the floors, and whether corrections apply (a recalled change hides the fact it replaces). */
export interface RecallSettings {
  floors: RecallFloors;
  corrections: boolean;
}

type Candidate = RecalledMemory & { relevance: number; rerank?: RerankCandidate; attribute?: string | undefined };

/** The facts of the scope among `matches` (never another scope's, never past retention: a remote store may lag its own expiry), with their relevance. */
function candidatesOf(parts: MemoryParts, request: { scope: RecallScope; floors: RecallFloors }, matches: readonly VectorMatch[], cues: RecallCues | undefined): Candidate[] {
  const { scope, floors } = request;
  const at = parts.now();
  const out: Candidate[] = [];
  for (const match of matches) {
    const record = recordOf(match.id, match.payload);
    if (!record || record.orgId !== scope.orgId || (scope.subject !== undefined && record.subject !== scope.subject)) continue;
    if (at - record.updatedAt.getTime() > parts.ttlMs) continue;
    const attribute = attributeOf(match.payload);
    const hits = cues ? cueHits(cues, { ...record, attribute }) : undefined;
    const relevance = match.score + (cues && match.score >= (floors.cued ?? -1) ? cueBonus(cues, { ...record, attribute }, RECALL_CUE_WEIGHTS) : 0);
    const rerank = hits && { similarity: match.score, wordHit: hits.word, slotHit: hits.slot, ownHit: hits.own, attribute: attribute !== undefined };
    out.push({ ...record, score: round4(Math.min(1, relevance)), similarity: round4(match.score), relevance, attribute, ...(rerank ? { rerank } : {}) });
  }
  return out.sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0));
}

/** Attaches the re-ranker's features to the user's nearest candidates. */
async function describeCandidates(parts: MemoryParts, request: { query: string; vector: Float32Array }, candidates: Candidate[]): Promise<void> {
  const near = candidates.filter((c) => c.rerank !== undefined);
  const personal = await parts.attributes.closeness(request.vector);
  const features = rerankFeatures({ self: refersToUser(request.query), personal }, near.map((c) => c.rerank!));
  for (const [i, values] of features.entries()) near[i]!.features = { values };
}

/** Whether the encoder places a request near no attribute's example question, so the stricter floor applies (`RecallFloors.unsure`). */
async function lowAttributeConfidence(parts: MemoryParts, vector: Float32Array, floors: RecallFloors): Promise<boolean> {
  return floors.unsure !== undefined && (await parts.attributes.closeness(vector)) < floors.unsure.closeness;
}

/** The read side of a memory store: facts of the scope whose relevance to `query` passes the floor, best first (own conversation first). */
export async function recallMemories(parts: MemoryParts, settings: RecallSettings, request: { scope: RecallScope; query: string; options: RecallOptions }): Promise<RecalledMemory[]> {
  const { floors } = settings;
  const { scope, query, options } = request;
  const limit = options.limit ?? 5;
  if (query.trim().length === 0 || limit <= 0) return [];
  if (parts.holders && !parts.holders.holds(scope.orgId, scope.subject)) return [];
  const self = refersToUser(query);
  const floor = options.minSimilarity ?? (self ? floors.self : floors.other);
  const vector = options.vector ?? (await parts.embedder.embed([query]))[0]!;
  const cues = options.cues === false ? undefined : recallCues(query, await parts.attributes.askedBy(vector));
  const scored = cues !== undefined && options.features === true;
  // A fact below the floor by less than the largest bonus may still clear it: search that far down (all the way for the features).
  const reach = cues ? maxCueBonus(RECALL_CUE_WEIGHTS) : 0;
  const matches = await parts.vectors.search(vector, { orgId: scope.orgId, scope: MEMORY_SCOPE, ...(scope.subject !== undefined ? { subject: scope.subject } : {}), limit: cues ? Math.max(limit * 3, NEIGHBOURS) : limit * 3, minScore: scored ? -1 : floor - reach });
  const direct = candidatesOf(parts, { scope, floors }, matches, cues);
  const candidates = settings.corrections ? await liftedThroughHistory(parts, { scope, vector, minScore: floor - reach }, direct, (found) => candidatesOf(parts, { scope, floors }, found, cues)) : direct;
  if (scored) await describeCandidates(parts, { query, vector }, candidates);
  const passing = candidates.filter((c) => c.relevance >= floor);
  // Asked only when a fact would pass on a floor the stricter one might undo: most requests pass nothing.
  const doubtful = (c: Candidate) => c.rerank?.slotHit !== true && c.relevance < (floors.unsure?.floor ?? -1);
  const unsure = options.minSimilarity === undefined && !self && passing.some(doubtful) && (await lowAttributeConfidence(parts, vector, floors));
  const kept = passing.filter((c) => !unsure || !doubtful(c));
  if (kept.length === 0 && cues && options.minSimilarity === undefined && floors.nearest) {
    const below = floor - reach;
    const phrase = floors.nearest.phrase;
    const nearest = clearlyNearest(candidates, { query, rules: floors.nearest, below }) ?? (self && phrase ? await ownedNearest(parts, { scope, query, rule: phrase, below }, candidates) : undefined);
    if (nearest) kept.push(nearest);
  }
  const recalled = (settings.corrections && cues ? withChangesStandingIn(kept, candidates) : kept).map(({ rerank: _, attribute: __, features, ...c }) => (options.features && features ? { ...c, features } : c));
  const own = (memory: RecalledMemory) => (scope.conversationId !== undefined && memory.conversationId === scope.conversationId ? 1 : 0);
  const best = (settings.corrections ? withoutReplaced(recalled, cues) : recalled).sort((a, b) => own(b) - own(a) || b.relevance - a.relevance || b.updatedAt.getTime() - a.updatedAt.getTime()).slice(0, limit);
  return best.map(({ relevance: _, ...memory }) => memory);
}
