import { extractEntities, type MemoryEntity } from './entities.js';
import { factSlot } from './fact-slots.js';
import { clausesOf, cleanClause, sentencesOf } from './split-clauses.js';

/** A durable fact an end user stated about themselves, as memory stores it. */
export interface ExtractedFact {
  /** The statement, as the user worded it (one sentence, whitespace folded). */
  text: string;
  /**
   * What the fact is about when it can only hold one value at a time (`name`, `home`, `employer`,
   * `age`, `birthday`, `my:<thing>`): a newer fact of the same slot replaces the older one.
   */
  slot?: string;
  entities: MemoryEntity[];
  /**
   * What the statement does to what was said before: `update` when it announces a change ("I now
   * work as ...", "I moved to ...", "A correction: ..."), `retract` when it ends one ("I no longer
   * ...", "I sold my car"), `forget` when it asks to drop one ("forget that I ..."; `text` is what
   * to forget, and it is never stored itself).
   */
  change?: FactChange;
  /** A `forget` of what was said about a value ("ignore what I said about Waitrose"): `text` is the value, not a statement. */
  topic?: boolean;
  /** The attribute (a slot) the encoder places the statement near, sure or not (set by the store, not the extractor). */
  attribute?: string;
}

export type FactChange = 'update' | 'retract' | 'forget';

export interface ExtractFactsOptions {
  /** Characters of the message read at most (a pasted document is not a statement about oneself). Default 2,000. */
  maxChars?: number;
  /** Facts kept from one message at most. Default 8. */
  maxFacts?: number;
}

/** Words that open a question even without its question mark. */
const QUESTION_START = /^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|can|could|would|should|will|shall|may|might|have|has|am)\b/i;
/** Openers that ask the assistant for something rather than state a fact. */
const REQUEST =
  /^(?:please\b|(?:say|write|tell|give|list|explain|translate|summari[sz]e|show|make|create|generate|help|answer|repeat|ignore|describe|compare|draft|rewrite|fix|find|suggest|recommend|calculate|count|return|reply|respond|output|print)\b|i (?:want|need|would like|'d like|wish) (?:you|to know|help)\b|let me\b|let's\b|can you\b|could you\b)/i;
/** A first-person subject near the start: the user talking about themselves. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|im|ive|my|mine|me|we|we're|we've|our|us)\b/i;
/** Statements with no lasting content (acknowledgements, hedges). */
const FILLER = /^(?:i (?:think|guess|see|agree|mean|know|understand|hope|suppose|believe) (?:so|that'?s? (?:right|it|true)|it)?|i'm (?:fine|good|ok|okay|sorry|not sure)|me too|my bad|my pleasure|thank(?:s| you)\b.*)[.!]*$/i;

/** Two words that still state something: "I'm vegan", "I'm 34", "I'm engaged". */
const SHORT_STATEMENT = /^(?:i'm|im) (?!(?:fine|good|ok|okay|sorry|here|back|done|sure|ready|in|out|lost|confused|kidding|joking)\b)[a-z0-9]+[.!]?$/i;

/** Whether a sentence is a statement the user made about themselves (not a question, a request or filler). */
export function isSelfStatement(sentence: string): boolean {
  const words = sentence.split(/\s+/).length;
  if ((words < 3 && !SHORT_STATEMENT.test(sentence)) || words > 60) return false;
  if (sentence.endsWith('?') || QUESTION_START.test(sentence) || REQUEST.test(sentence) || FILLER.test(sentence)) return false;
  // The first-person word must come early: "Write about my day" fails on REQUEST; "Paris is where I live" passes.
  const match = FIRST_PERSON.exec(sentence);
  return match !== null && match.index <= 60;
}

/**
 * The durable facts in what an end user said: each sentence in which they state something about
 * themselves (where they live, their name, what they like, what happened to them), never
 * questions, requests to the assistant or acknowledgements. Pure and synchronous; the caller
 * redacts PII first when the request or organisation asks for it.
 */
export function extractFacts(text: string, options: ExtractFactsOptions = {}): ExtractedFact[] {
  const maxChars = options.maxChars ?? 2_000;
  const maxFacts = options.maxFacts ?? 8;
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  let corrects = false;
  for (const raw of sentencesOf(text.slice(0, maxChars)).flatMap(clausesOf)) {
    const clause = cleanClause(raw);
    corrects ||= clause.corrects;
    const fact = factOf(clause.text, corrects);
    if (!fact || seen.has(fact.text.toLowerCase())) continue;
    seen.add(fact.text.toLowerCase());
    facts.push(fact);
    if (facts.length >= maxFacts) return facts;
  }
  return facts;
}

/** "Forget that I ...", "please disregard what I said about ...": what follows is to be forgotten. */
const FORGET = /^(?:please )?(?:forget|disregard|scratch|ignore|never mind)(?: (?:that|about|(what i (?:said|told you) about|the (?:part|bit) about)))?\s+/i;
/** A statement that ends what was true: "I no longer ...", "... not ... anymore", "I sold my car". */
const RETRACT = /\bno longer\b|\b(?:not|never)\b.*\b(?:anymore|any more)\b|n't\b.*\b(?:anymore|any more)\b|^i (?:stopped|quit|dropped out of|gave up|sold|left|broke up with)\b/i;
/**
 * What a retraction goes on to say took the place of what it ended: "... for LinkedIn", "... for a
 * startup", "... and got a Switch", "... and fly Ryanair now" (a second predicate: not a verb in
 * -ing, "I quit smoking and drinking", nor a determiner, "I sold my car and my bike").
 */
const REPLACEMENT = /\b(?:for|in favou?r of) (?:(?:a|an|the) |[A-Z\d])|\band (?:then |now )?(?!(?:a|an|the|my|his|her|their|our|some|all|any|also|so|too)\b)[a-z]+(?<!ing)\b/;
/** A retraction that names what took the place of what it ended is a change: "I sold my console and got a Switch". */
const isRetraction = (clause: string) => RETRACT.test(clause) && !(/^i (?:stopped|quit|gave up|sold|left)\b/i.test(clause) && REPLACEMENT.test(clause));
/** Words that announce a change of something stated before. */
const UPDATE = /\b(?:now|nowadays|these days|currently|again|instead|switched|changed|moved|relocated|became|joined|renamed|promoted|bought|started|turned|recently|as of|since|actually|replaced|swapped|traded|upgraded|took up|taken up|retrained|transferred|ported|signed up)\b/i;

/** "new" announces a change in lower case only: "my new partner", not "New Zealand". */
const NEW = /\bnew\b/;

/** The fact a cleaned clause states, if it states one, with what it changes. */
function factOf(clause: string, corrects: boolean): ExtractedFact | undefined {
  const forgotten = FORGET.exec(clause);
  if (forgotten) {
    const what = clause.slice(forgotten[0].length).replace(/[.!]+$/, '');
    // "what I said about Waitrose" names a value to forget; "forget about work" alone names nothing stated.
    if (!FIRST_PERSON.test(what)) return forgotten[1] ? { text: what, entities: [], change: 'forget', topic: true } : undefined;
    return { text: what.charAt(0).toUpperCase() + what.slice(1), entities: [], change: 'forget' };
  }
  if (!isSelfStatement(clause)) return undefined;
  const slot = factSlot(clause);
  const change: FactChange | undefined = isRetraction(clause) ? 'retract' : corrects || UPDATE.test(clause) || NEW.test(clause) || RETRACT.test(clause) ? 'update' : undefined;
  return { text: clause, ...(slot ? { slot } : {}), entities: extractEntities(clause), ...(change ? { change } : {}) };
}
