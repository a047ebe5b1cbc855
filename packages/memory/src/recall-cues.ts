import { slotsAskedFor } from './fact-slots.js';

/**
 * What a request's words say it is about, beyond its vector: the content words it shares with a
 * fact, and the slot it asks for ("Where do I live?" asks for `home`). A bi-encoder such as
 * MiniLM places a question and the statement that answers it far apart ("Do you remember what
 * I'm called?" / "My name is Ada" scores 0.37), so a fact that shares these cues gets a bonus on
 * top of its similarity. The weights are calibrated with the floors (`recall-threshold.ts`).
 */
export interface RecallCues {
  words: ReadonlySet<string>;
  slots: ReadonlySet<string>;
  /** Words the request ties to its user: "my bank account", "the sport I play", "near where I live". */
  own: ReadonlySet<string>;
}

/** Bonus added to a fact's similarity per kind of cue it shares with the request. */
export interface CueWeights {
  /** At least one content word in common (after stop words and a light stemming). */
  wordHit: number;
  /** The fact fills the slot the request asks for. */
  slotHit: number;
  /** The fact holds a word the request ties to its user ({@link ownWords}); 0 when absent. */
  ownWordHit?: number;
}

/** Words that carry no topic: articles, pronouns, auxiliaries, question words. */
const STOP_WORDS = new Set(
  `a an the of to in on at for from by with about as into over after before under and or but if so than then that this these those it its it's is are
was were be been being am do does did doing have has had having can could would should will shall may might must i i'm i've i'd i'll me my mine myself
we our ours us you your yours he she his her they them their what what's who whom whose where when why how which there here not no yes any some all
most more very just also now days much many one`.split(/\s+/),
);

/** Strips a possessive and one common suffix, so "dog's" meets "dog" and "training" meets "trained". */
function stem(word: string): string {
  const base = word.replace(/'s$/, '');
  for (const suffix of ['ing', 'ed', 'es', 's']) if (base.length > suffix.length + 2 && base.endsWith(suffix)) return base.slice(0, -suffix.length);
  return base;
}

/** The topic words of a text, stemmed. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(/[a-z][a-z']*/g)) if (word.length > 1 && !STOP_WORDS.has(word)) words.add(stem(word));
  return words;
}

/** Where a request ties words to its user: "my X Y", "the X (that) I <verb>", "where I <verb>". */
const OWNED = [/\bmy ([a-z']+(?: [a-z']+)?)/gi, /\b(?:the|a|an|which|what) ([a-z]+) (?:that |which )?i(?:'m| am| do| have)? ([a-z]+)/gi, /\bwhere (?:do |did )?i ([a-z]+)/gi];

/**
 * The words a request ties to its user, stemmed: a fact that holds one is about what the request
 * asks of the user's own things ("Suggest a warm-up for the sport I play" and "I play rugby now";
 * "Find a bakery near where I live" and "I live in Berlin"), whatever else the request is about.
 */
export function ownWords(query: string): Set<string> {
  const own = new Set<string>();
  for (const pattern of OWNED) for (const match of query.matchAll(pattern)) for (const word of contentWords(match.slice(1).join(' '))) own.add(word);
  return own;
}

/** The cues of a request: its content words, and the slots its patterns ask for plus `asked` (the attribute the encoder placed it near). */
export function recallCues(query: string, asked?: string): RecallCues {
  const slots = slotsAskedFor(query);
  if (asked !== undefined) slots.add(asked);
  return { words: contentWords(query), slots, own: ownWords(query) };
}

/** The most {@link cueBonus} can add: how far below the floor a candidate may be searched for. */
export const maxCueBonus = (weights: CueWeights): number => weights.wordHit + weights.slotHit + (weights.ownWordHit ?? 0);

/**
 * What a fact's shared cues add to its similarity to the request. A fact fills the slot asked for
 * when its slot is that slot, or (`attribute`) the encoder placed it near that attribute and no
 * pattern named what else it is ("I support Boca Juniors" for "Which club do I follow?").
 */
export function cueBonus(cues: RecallCues, fact: { text: string; slot: string | null; attribute?: string | undefined }, weights: CueWeights): number {
  const hits = cueHits(cues, fact);
  return (hits.word ? weights.wordHit : 0) + (hits.own ? (weights.ownWordHit ?? 0) : 0) + (hits.slot ? weights.slotHit : 0);
}

/** Which cues a fact shares with the request (see {@link cueBonus}). */
export function cueHits(cues: RecallCues, fact: { text: string; slot: string | null; attribute?: string | undefined }): { word: boolean; slot: boolean; own: boolean } {
  const words = [...contentWords(fact.text)];
  const near = fact.attribute !== undefined && (fact.slot === null || fact.slot.startsWith('my:')) && cues.slots.has(fact.attribute);
  return {
    word: words.some((word) => cues.words.has(word)),
    own: words.some((word) => cues.own.has(word)),
    slot: (fact.slot !== null && cues.slots.has(fact.slot)) || near,
  };
}
