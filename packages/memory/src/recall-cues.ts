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
}

/** Bonus added to a fact's similarity per kind of cue it shares with the request. */
export interface CueWeights {
  /** At least one content word in common (after stop words and a light stemming). */
  wordHit: number;
  /** The fact fills the slot the request asks for. */
  slotHit: number;
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

/** The cues of a request: its content words, and the slots its patterns ask for plus `asked` (the attribute the encoder placed it near). */
export function recallCues(query: string, asked?: string): RecallCues {
  const slots = slotsAskedFor(query);
  if (asked !== undefined) slots.add(asked);
  return { words: contentWords(query), slots };
}

/** The most {@link cueBonus} can add: how far below the floor a candidate may be searched for. */
export const maxCueBonus = (weights: CueWeights): number => weights.wordHit + weights.slotHit;

/**
 * What a fact's shared cues add to its similarity to the request. A fact fills the slot asked for
 * when its slot is that slot, or (`attribute`) the encoder placed it near that attribute and no
 * pattern named what else it is ("I support Boca Juniors" for "Which club do I follow?").
 */
export function cueBonus(cues: RecallCues, fact: { text: string; slot: string | null; attribute?: string | undefined }, weights: CueWeights): number {
  let bonus = 0;
  if (weights.wordHit > 0 && [...contentWords(fact.text)].some((word) => cues.words.has(word))) bonus += weights.wordHit;
  const near = fact.attribute !== undefined && (fact.slot === null || fact.slot.startsWith('my:')) && cues.slots.has(fact.attribute);
  if ((fact.slot !== null && cues.slots.has(fact.slot)) || near) bonus += weights.slotHit;
  return bonus;
}
