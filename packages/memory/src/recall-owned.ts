/**
 * The user's own thing, named by the request (issue #35, fifteenth pass). An indirect request
 * names what it is about with a phrase of the user's own ("Will my supermarket be open on Sunday
 * evening?", "Check the baggage allowance of the airline I usually fly"): the rest of the request
 * pulls its vector away from the fact that answers it ("I shop at Waitrose these days": 0.37), yet
 * the phrase alone is near that fact. When nothing clears the floor, the user's nearest fact is
 * given if two views agree on it: it is clearly nearest to the whole request, and the phrase the
 * request names the user's thing with is clearly nearest to it too. Either view alone lets
 * unrelated prompts through ("How can I improve my English?" has a nearest fact as well); both
 * together rarely do (docs/memory.md, fifteenth pass).
 */
import type { VectorMatch } from '@svc/semantic';
import type { MemoryParts } from './memory-parts.js';
import { MEMORY_SCOPE } from './memory-points.js';
import type { RecallScope } from './memory-scope.js';
import { leaderOf, type OwnedPhraseRule, type Ranked } from './recall-nearest.js';

/** Modal and light verbs: "the best phone I can get" asks about the world, not about a thing the user has. */
const NOT_OWNING = new Set(['can', 'could', 'should', 'would', 'will', 'must', 'need', 'get', 'want', 'think']);

/** The phrases a request names the user's own things with: "my X", "my X Y", "the X (that) I (usually) <verb>", "where I <verb>". */
export function ownedPhrases(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.matchAll(/\bmy ([a-z']+)(?: ([a-z']+))?/gi)) {
    out.add(`my ${m[1]}`.toLowerCase());
    if (m[2]) out.add(`my ${m[1]} ${m[2]}`.toLowerCase());
  }
  for (const m of query.matchAll(/\b(?:the|a|an|which|what) ([a-z]+(?: [a-z]+)?) (?:that |which )?i(?:'m| am| do| have)? (?:usually |always |normally )?([a-z]+)/gi)) {
    if (!NOT_OWNING.has(m[2]!.toLowerCase())) out.add(`the ${m[1]} I ${m[2]}`.toLowerCase());
  }
  for (const m of query.matchAll(/\bwhere (?:do |did )?i ([a-z]+)/gi)) if (!NOT_OWNING.has(m[1]!.toLowerCase())) out.add(`where I ${m[1]}`.toLowerCase());
  return [...out];
}

/** The fact the phrases' searches place clearly nearest (best cosine over the phrases), if `rule` holds. */
export function phraseLeader(searches: readonly (readonly VectorMatch[])[], rule: OwnedPhraseRule): string | undefined {
  const best = new Map<string, number>();
  for (const matches of searches) for (const m of matches) best.set(m.id, Math.max(best.get(m.id) ?? -1, m.score));
  const [first, second] = [...best.entries()].sort((a, b) => b[1] - a[1]);
  if (first === undefined || first[1] < rule.phrase || first[1] - (second?.[1] ?? -1) < rule.phraseAhead) return undefined;
  return first[0];
}

/**
 * The user's nearest fact when the request's owned phrase agrees on it (see the file's comment):
 * one embedding of the phrases and one search of the user's facts per phrase, only when the
 * request names a thing of its own and its nearest fact is already clearly ahead.
 */
export async function ownedNearest<T extends Ranked & { id: string }>(parts: MemoryParts, request: { scope: RecallScope; query: string; rule: OwnedPhraseRule; below: number }, candidates: readonly T[]): Promise<T | undefined> {
  const { rule, scope } = request;
  const lead = leaderOf(candidates, request.below);
  if (lead === undefined || lead.first.relevance < rule.floor || lead.first.relevance - lead.second < rule.ahead) return undefined;
  const phrases = ownedPhrases(request.query);
  if (phrases.length === 0) return undefined;
  const vectors = await parts.embedder.embed(phrases);
  const where = { orgId: scope.orgId, scope: MEMORY_SCOPE, ...(scope.subject !== undefined ? { subject: scope.subject } : {}), limit: 2, minScore: -1 };
  const searches = await Promise.all(vectors.map((vector) => parts.vectors.search(vector, where)));
  return phraseLeader(searches, rule) === lead.first.id ? lead.first : undefined;
}
