/**
 * A request about the user's own present state, whose answer the encoder places below the floor
 * (issue #35, seventh pass). A bi-encoder places "Which computer do I work on?" far from "I replaced
 * my laptop with a Surface Pro" (0.39), yet that fact is still the user's nearest one, well ahead
 * of the rest: a question about one attribute is near the one fact that states it and far from the
 * user's facts about other things. Unrelated prompts that refer to their user rarely have this
 * shape ("How do I get my English better?" asks how, not what the user's state is).
 */

/** How far below the floor the user's nearest fact may be, and how far ahead of the next it must be. */
export interface NearestRule {
  /** Least relevance (similarity plus cues) of the nearest fact. */
  floor: number;
  /** Least lead of the nearest fact's relevance over the next fact's. */
  ahead: number;
}

/** How near and how clear the two views of the owned-phrase rule must be (`recall-owned.ts`). */
export interface OwnedPhraseRule {
  /** Least relevance (similarity plus cues) of the request's nearest fact. */
  floor: number;
  /** Least lead of that fact's relevance over the next fact's. */
  ahead: number;
  /** Least cosine of the request's owned phrase to the same fact. */
  phrase: number;
  /** Least lead of that cosine over the phrase's next fact. */
  phraseAhead: number;
}

/** The ways a request shows it asks about the user's own state; absent: the rule is off. */
export interface NearestRules {
  /** The request asks what the user's state is ({@link asksForState}). */
  state: NearestRule;
  /**
   * The nearest fact holds a word the request ties to its user ("my bank account", "the sport I play");
   * absent: off (the shipped calibration leaves it off: docs/memory.md, seventh pass).
   */
  own?: NearestRule;
  /**
   * The request names the user's thing with a phrase that points to the same fact (`recall-owned.ts`);
   * absent: off. The shipped calibration leaves it off: its best dev setting (0.3 / 0.15, phrase 0.3 /
   * 0.05) took the recall eval's held-out false injection from 19 to 21 of 1,999, over the 1% goal,
   * for 2 of 624 held-out questions (docs/memory.md, fifteenth pass); on 8,000 more self-referring dev
   * prompts it injects into 74 more for 26 tuning questions, and no stricter setting gains more than
   * it injects (sixteenth pass).
   */
  phrase?: OwnedPhraseRule;
}

/**
 * A wh-question about the user's present state: "Which bank am I with?", "What laptop do I have?",
 * "Who is my phone plan with?", "Where do I spend my summers?". Not advice or how-to ("What's the
 * best phone I can get?", "What should I study?", "How do I ..."): those ask about the world.
 */
const STATE_QUESTION = /^(?:and |so )?(?:what|which|who|whom|where)(?:'s| is| are| was)?\b[\w' -]{0,30}?\b(?:(?:do|did|am|have) i|is my|are my|'s my|i'm)\b(?![\w' ]*\b(?:best|should|could|can|need|must|get)\b)/i;

/** Whether a request asks what the user's present state is (see {@link STATE_QUESTION}). */
export function asksForState(query: string): boolean {
  return STATE_QUESTION.test(query.trim());
}

/** A candidate as this rule reads it: its relevance and whether it holds a word the request ties to its user. */
export interface Ranked {
  relevance: number;
  rerank?: { ownHit: boolean } | undefined;
}

/** The candidate of highest relevance and the relevance of the next (`below` when there is none above it). */
export function leaderOf<T extends Ranked>(candidates: readonly T[], below: number): { first: T; second: number } | undefined {
  let first: T | undefined;
  let second = below;
  for (const c of candidates) {
    if (first === undefined || c.relevance > first.relevance) {
      if (first !== undefined) second = Math.max(second, first.relevance);
      first = c;
    } else second = Math.max(second, c.relevance);
  }
  return first === undefined ? undefined : { first, second };
}

/**
 * The user's nearest fact when nothing cleared the floor and it is clearly the one the request
 * asks about: at least `floor` relevant and `ahead` clear of the next candidate (`below`: the
 * least relevance searched, standing in for a next candidate the search did not return).
 */
export function clearlyNearest<T extends Ranked>(candidates: readonly T[], request: { query: string; rules: NearestRules; below: number }): T | undefined {
  const lead = leaderOf(candidates, request.below);
  if (lead === undefined) return undefined;
  const { first, second } = lead;
  const clears = (rule: NearestRule) => first.relevance >= rule.floor && first.relevance - second >= rule.ahead;
  if (asksForState(request.query) && clears(request.rules.state)) return first;
  const own = request.rules.own;
  return own !== undefined && first.rerank?.ownHit === true && clears(own) ? first : undefined;
}
