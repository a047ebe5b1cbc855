import type { CachedAnswer, ChatRequest } from '@svc/core';
import { type EligibilityOptions, semanticKeyOf } from './eligibility.js';
import type { Embedder } from './embedder/interface.js';
import { type KeyTerms, keyTerms, mayShareAnswer } from './entity-guard.js';
import type { PairReader } from './pair/pair-reader.js';
import { shippedPairReader } from './pair/role-model-data.js';
import { decodeTokenFeatures, packStoredFeatures, unpackStoredFeatures } from './pair/token-features.js';
import { pointId } from './scope.js';
import type { VectorMatch, VectorStore } from './store/interface.js';
import { similarityCalibration } from './thresholds.js';
import type { TextProfile } from './verifier/pair-features.js';
import { trainedVerifier } from './verifier/trained.js';
import type { Verifier } from './verifier/verifier.js';

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
   * Lowest cosine similarity a stored question needs: with a verifier, to be verified at all
   * (the search's floor; default the verifier's calibrated floor); without, to be served
   * (default {@link similarityThreshold}; required for an embedder without one).
   */
  threshold?: number;
  /**
   * The learned pair classifier that decides a hit among the nearest entries (default: the one
   * trained for `embedder.id`, if any, see {@link trainedVerifier}; false: similarity alone).
   */
  verifier?: Verifier | false;
  /**
   * Without a verifier: the pair model that reads the query and the stored question it would
   * serve together and refuses the hit under its threshold (word order, roles) (default the
   * embedder's {@link Embedder.pairReader}, if any, read through the shipped role model when it is
   * the one that model reads, see {@link shippedPairReader}; false: none). A reader given here is
   * used as it is.
   */
  pairReader?: PairReader | false;
  /** How long an answer stays servable, ms (default 24 h, the spec's `cache_ttl_secs` maximum). */
  ttlMs?: number;
  /**
   * The near-miss guard ({@link mayShareAnswer}): refuse a hit whose numbers, symbols, names,
   * negation, opposite words or order around a relation word differ from the question's
   * ("capital of France" vs "capital of Spain", "lose" vs "gain weight") (default true).
   */
  keyTermGuard?: boolean;
  /** Nearest entries examined per lookup, best first (default the embedder's calibration, else 3). */
  candidates?: number;
  /**
   * Without a verifier: refuse a hit when another candidate the guard lets through is within this
   * much cosine of the best (ambiguous between two stored questions) (default the embedder's
   * calibration, else 0: off).
   */
  ambiguityMargin?: number;
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
  /** The verifier deciding hits, if any. */
  readonly verifier: Verifier | undefined;
  /** The pair model that may refuse the nearest stored question, if any. */
  readonly pairReader: PairReader | undefined;
  /**
   * Undefined when the request is not eligible; a failure is a miss, never a rejection.
   * `audience` narrows the entries searched to those stored for it (a memory scope, see `store`).
   * `vector`, when the caller already embedded the question with this cache's embedder (the text
   * {@link semanticKeyOf} gives: the final user message, spacing collapsed), spares a second
   * embedding; one of another length is ignored and the question embedded here.
   */
  lookup(request: ChatRequest, orgId: string, audience?: string, vector?: Float32Array): Promise<SemanticLookup | undefined>;
  /**
   * Stores a complete answer; pass the lookup's miss to reuse its embedding (and its audience).
   * With `audience` the entry is served only to lookups of the same audience. Never rejects.
   */
  store(request: ChatRequest, orgId: string, answer: CachedAnswer, miss?: SemanticLookup, audience?: string): Promise<void>;
  /** Removes an organisation's entries, or everyone's. Rejects when the store fails (an admin action). */
  purge(orgId?: string): Promise<void>;
  /** Whether the vector store answers (readiness: `degraded` when false). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The scope of entries shared only with `audience` (a memory scope) inside the organisation. */
const scopeFor = (scope: string, audience: string | undefined): string => (audience === undefined ? scope : `${scope}/${audience}`);

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
 * Similarity alone, matches best first: the nearest decides. Undefined when the guard refuses it
 * (a farther question is no safer than a near miss) or when the next is within `margin` of it
 * (the query sits between two stored questions).
 */
function nearest(matches: readonly VectorMatch[], text: string, guard: boolean, margin: number): VectorMatch | undefined {
  const [best, next] = matches;
  if (!best) return undefined;
  if (guard && !mayShareAnswer(keyTerms(text), keyTerms(best.payload.text))) return undefined;
  if (margin > 0 && next && next.score >= best.score - margin) return undefined;
  return best;
}

/**
 * With a verifier: the candidate it is surest of, among those the guard lets through. The query's
 * key terms and profile are computed once; a candidate's profile only once the guard (the cheaper
 * test) has let it through.
 */
function verified(matches: readonly VectorMatch[], text: string, guard: boolean, verifier: Verifier): VectorMatch | undefined {
  let terms: KeyTerms | undefined;
  let query: TextProfile | undefined;
  let best: VectorMatch | undefined;
  let bestScore = 0;
  for (const match of matches) {
    const candidateTerms = guard ? keyTerms(match.payload.text) : undefined;
    if (candidateTerms) {
      terms ??= keyTerms(text);
      if (!mayShareAnswer(terms, candidateTerms)) continue;
    }
    query ??= verifier.profile(text, terms);
    const score = verifier.score(query, verifier.profile(match.payload.text, candidateTerms), match.score);
    if (score >= verifier.threshold && score > bestScore) [best, bestScore] = [match, score];
  }
  return best;
}

/** How a lookup decides, resolved from the settings and the embedder's calibration. */
interface Decision {
  verifier: Verifier | undefined;
  pair: PairReader | undefined;
  threshold: number;
  guard: boolean;
  candidates: number;
  margin: number;
}

function resolveDecision(settings: SemanticCacheSettings): Decision {
  const { embedder } = settings;
  const verifier = settings.verifier === false ? undefined : (settings.verifier ?? trainedVerifier(embedder.id));
  if (verifier && verifier.embedder !== embedder.id) throw new Error(`the verifier was trained on embedder ${verifier.embedder}, not ${embedder.id}`);
  const calibration = similarityCalibration(embedder.id);
  const threshold = settings.threshold ?? (verifier ? verifier.candidateFloor : calibration?.threshold);
  if (threshold === undefined) {
    throw new Error(`no calibrated semantic-cache threshold for embedder ${embedder.id}; calibrate it (pnpm --filter @svc/evals semantic) and pass \`threshold\``);
  }
  if (!(threshold > -1 && threshold <= 1)) throw new RangeError(`threshold must be in (-1, 1], got ${threshold}`);
  return {
    verifier,
    pair: verifier || settings.pairReader === false ? undefined : (settings.pairReader ?? shippedPairReader(embedder.pairReader)),
    threshold,
    guard: settings.keyTermGuard ?? true,
    candidates: settings.candidates ?? calibration?.candidates ?? 3,
    margin: verifier ? 0 : (settings.ambiguityMargin ?? calibration?.margin ?? 0),
  };
}

/** Everything a lookup or a store needs. */
interface CacheContext {
  settings: SemanticCacheSettings;
  decision: Decision;
  lookupTimeoutMs: number;
  ttlMs: number;
  now: () => number;
  report: (error: unknown, operation: SemanticOperation) => void;
}

async function embedOne(embedder: Embedder, text: string): Promise<Float32Array> {
  const [vector] = await embedder.embed([text]);
  if (!vector || vector.length !== embedder.dimensions) throw new Error(`embedder ${embedder.id} returned no vector of ${embedder.dimensions} dimensions`);
  return vector;
}

/** Where an entry keeps its question's pair features (`meta`), tagged with the pair model's id. */
const PAIR_META = 'pairFeatures';

/** How entries stored since issue #27's halving keep their features (`packing`); the releases before kept int8 and no tag. */
const PACKING = 'q4';

/** The features stored with a match by the same pair model, if any: 4-bit, or int8 as the previous releases stored them. */
function storedFeatures(pair: PairReader, match: VectorMatch) {
  const kept = match.payload.meta?.[PAIR_META] as { model?: unknown; data?: unknown; packing?: unknown } | undefined;
  if (kept?.model !== pair.id || typeof kept.data !== 'string') return undefined;
  if (kept.packing === undefined) return decodeTokenFeatures(kept.data, pair.dimensions);
  return kept.packing === PACKING ? unpackStoredFeatures(kept.data, pair.dimensions) : undefined;
}

/** Whether the pair model reads the query and the stored question as the same question. */
async function readAlike(pair: PairReader, text: string, match: VectorMatch): Promise<boolean> {
  const query = await pair.features(text);
  const stored = storedFeatures(pair, match) ?? (await pair.features(match.payload.text));
  return pair.score(query, stored, match.score) >= pair.threshold;
}

/** The match to serve among those the search returned, if any. */
function decide({ verifier, guard, margin }: Decision, matches: readonly VectorMatch[], text: string): VectorMatch | undefined {
  return verifier ? verified(matches, text, guard, verifier) : nearest(matches, text, guard, margin);
}

async function lookupIn(ctx: CacheContext, request: ChatRequest, orgId: string, audience: string | undefined, given: Float32Array | undefined): Promise<SemanticLookup | undefined> {
  const { embedder, store } = ctx.settings;
  const found = semanticKeyOf(request, ctx.settings.eligibility);
  if (!found) return undefined;
  const key = { ...found, scope: scopeFor(found.scope, audience) };
  const deadline = Date.now() + ctx.lookupTimeoutMs;
  let vector: Float32Array;
  try {
    vector = given?.length === embedder.dimensions ? given : await within(embedOne(embedder, key.text), ctx.lookupTimeoutMs);
  } catch (error) {
    ctx.report(error, 'embed');
    return { hit: false };
  }
  const reuse = new SemanticMissKey(orgId, key.scope, key.text, vector);
  const { threshold, candidates } = ctx.decision;
  let matches: VectorMatch[];
  try {
    matches = await within(store.search(vector, { orgId, scope: key.scope, limit: candidates, minScore: threshold }), Math.max(1, deadline - Date.now()));
  } catch (error) {
    ctx.report(error, 'search');
    return { hit: false, reuse };
  }
  const usable = (match: VectorMatch) =>
    match.score >= threshold && match.payload.orgId === orgId && match.payload.scope === key.scope && match.payload.expiresAt > ctx.now() && fits(match, request);
  let best = decide(ctx.decision, matches.filter(usable), key.text);
  const { pair } = ctx.decision;
  if (best && pair) {
    try {
      if (!(await within(readAlike(pair, key.text, best), Math.max(1, deadline - Date.now())))) best = undefined;
    } catch (error) {
      ctx.report(error, 'embed');
      best = undefined;
    }
  }
  if (best) return { hit: true, answer: best.payload.answer, similarity: Math.min(1, best.score) };
  return { hit: false, reuse };
}

/** The question's pair features to keep with its entry (none without a pair model, or when it fails). */
async function pairMeta(ctx: CacheContext, text: string): Promise<Record<string, unknown> | undefined> {
  const { pair } = ctx.decision;
  if (!pair) return undefined;
  try {
    const blocks = pair.context ? [0, pair.context.from] : [0];
    return { [PAIR_META]: { model: pair.id, packing: PACKING, data: packStoredFeatures(await pair.features(text), blocks) } };
  } catch (error) {
    ctx.report(error, 'embed');
    return undefined;
  }
}

async function storeIn(ctx: CacheContext, request: ChatRequest, orgId: string, answer: CachedAnswer, miss: SemanticLookup | undefined, audience: string | undefined): Promise<void> {
  let reuse = miss && !miss.hit ? miss.reuse : undefined;
  if (!(reuse instanceof SemanticMissKey) || reuse.orgId !== orgId) reuse = undefined;
  let text = reuse?.text;
  let scope = reuse?.scope;
  let vector = reuse?.vector;
  if (!text || !scope || !vector) {
    const key = semanticKeyOf(request, ctx.settings.eligibility);
    if (!key) return;
    text = key.text;
    scope = scopeFor(key.scope, audience);
    try {
      vector = await embedOne(ctx.settings.embedder, text);
    } catch (error) {
      ctx.report(error, 'embed');
      return;
    }
  }
  const storedAt = ctx.now();
  const meta = await pairMeta(ctx, text);
  try {
    const payload = { orgId, scope, expiresAt: storedAt + ctx.ttlMs, text, answer, ...(meta ? { meta } : {}) };
    await ctx.settings.store.upsert([{ id: pointId(orgId, scope, text), vector, payload }]);
  } catch (error) {
    ctx.report(error, 'upsert');
  }
}

/**
 * The semantic cache: answers a request with a stored answer to a question close enough in
 * meaning, asked within the same organisation and scope (model, parameters, system prompt,
 * earlier turns). Eligibility: {@link semanticKeyOf}.
 */
export function createSemanticCache(settings: SemanticCacheSettings): SemanticCache {
  const { embedder, store } = settings;
  const decision = resolveDecision(settings);
  const ctx: CacheContext = {
    settings,
    decision,
    lookupTimeoutMs: settings.lookupTimeoutMs ?? 250,
    ttlMs: settings.ttlMs ?? 86_400_000,
    now: settings.now ?? Date.now,
    report: (error, operation) => {
      try {
        settings.onError?.(error, operation);
      } catch {
        // A failing reporter must not turn a miss into a failure.
      }
    },
  };
  return {
    embedder,
    threshold: decision.threshold,
    verifier: decision.verifier,
    pairReader: decision.pair,
    lookup: (request, orgId, audience, given) => lookupIn(ctx, request, orgId, audience, given),
    store: (request, orgId, answer, miss, audience) => storeIn(ctx, request, orgId, answer, miss, audience),
    purge: (orgId) => store.deleteByOrg(orgId),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
