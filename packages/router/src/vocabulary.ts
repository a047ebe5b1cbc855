/** Vocabulary classes, as bit flags so one lookup answers every class. The first ten are tallied per request. */
export const CODE = 1;
export const MATH = 2;
export const REASON = 4;
export const CONSTRAINT = 8;
export const WRITE_VERB = 16;
export const WRITING = 32;
export const EXTRACT = 64;
export const TRANSLATE = 128;
export const ANALYSIS = 256;
export const CHAT = 512;
/** Tallied classes: bits 0..9. */
export const tallied = 10;
/** Small talk when it opens the message. */
export const CHAT_OPENER = 1024;
/** A question when it opens the message. */
export const QUESTION_OPENER = 2048;
/** Negation words; they count as a signal only when written in capitals (NOT, EXCEPT). */
export const NEGATION = 4096;

const classes: [number, string][] = [
  [
    CODE,
    'function def class import return const let var async await public static void struct impl fn println console regex regexp compile compiler debug refactor typescript javascript python rust golang goroutine goroutines java sql query bash shell dockerfile docker kubernetes k8s api endpoint endpoints bug stacktrace exception segfault npm pip git react component renders atomics mutex raft cluster deploy deployment algorithm hashmap lru database schema frontend backend scraper script code program json yaml|select from|unit test|unit tests|stack trace|race condition|lock free|type checker|data structure|linked list|rest api|go service|hash map',
  ],
  [
    MATH,
    'solve equation integral derivative theorem lemma probability matrix eigenvalue eigenvalues eigenvectors polynomial calculate compute factorial prime modulo algebra geometry limit series variance sqrt percent percentage times plus minus radius recurrence irrational inequality discount discounted|prove that|sum of|how many ways|expected value|divided by|area of|group of order',
  ],
  [
    REASON,
    'why explain analyze analyse compare contrast evaluate tradeoff tradeoffs implication implications justify critique assess reason reasoning argue design architecture strategy prove derive optimize optimise critically rigorous rigorously formal statistical identification|trade off|trade offs|pros and cons|failure modes',
  ],
  [CONSTRAINT, 'must should exactly ensure without constraint constraints requirement requirements format each every include comprehensive thorough|at least|at most|step by step|in detail'],
  [WRITE_VERB, 'write draft rewrite paraphrase compose'],
  [
    WRITING,
    'essay story poem blog article email letter tone slogan tweet speech lyrics novel narrative haiku creative headline copy marketing post chapter message description|cover letter',
  ],
  [
    EXTRACT,
    'extract parse classify categorize categorise tag label summarize summarise summary tldr entities fields sentiment|list all|key points|pull out|find all|identify the|names and',
  ],
  [
    TRANSLATE,
    'translate translation traduis traduce traducir traduzir übersetze|how do you say|in french|in spanish|in german|in italian|in japanese|in chinese|in english|into french|into spanish|into german|into italian|into japanese|into chinese|into english|into portuguese|to spanish|to french|to german|to portuguese|to english|to italian|to japanese|en anglais',
  ],
  [
    ANALYSIS,
    'analyze analyse analysis data trend report market revenue risk impact assess evaluate diagnosis diagnose interpret review cause causes effect effects history historical economic legal medical policy|which of the following',
  ],
  [CHAT, '|tell me a joke|who are you|what can you do|how are you|thank you'],
  [CHAT_OPENER, 'hi hello hey thanks thank ok okay cool lol yes no sure good bye'],
  [QUESTION_OPENER, 'what who when where which whom whose how'],
  [NEGATION, 'not except least false incorrect never none'],
];

/** FNV-1a over char codes: the scanner hashes each word while it reads it, so lookups take no substring. */
export const fnvOffset = 0x811c9dc5;
export function fnvStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** A vocabulary word: its class flags and the phrases that end with it. */
export interface Entry {
  word: string;
  flags: number;
  /** Phrases ending with this word: the words before it (one or two) and the phrase's flags. */
  phrases: { before: string[]; flags: number }[];
}

/** Every word the scanner looks up, by index. */
export const entries: Entry[] = [];
const tableSize = 2048;
const slotHash = new Int32Array(tableSize);
const slotEntry = new Int32Array(tableSize).fill(-1);

function hashOf(word: string): number {
  let h = fnvOffset;
  for (let i = 0; i < word.length; i++) h = fnvStep(h, word.charCodeAt(i));
  return h;
}

function entryFor(word: string): Entry {
  const hash = hashOf(word);
  let slot = hash & (tableSize - 1);
  for (; slotEntry[slot] !== -1; slot = (slot + 1) & (tableSize - 1)) {
    const entry = entries[slotEntry[slot]!]!;
    if (entry.word === word) return entry;
    // The scanner trusts a hash match up to one comparison; two words with one hash would hide each other.
    if (slotHash[slot] === hash) throw new Error(`vocabulary hash collision: ${word} / ${entry.word}`);
  }
  const entry: Entry = { word, flags: 0, phrases: [] };
  slotHash[slot] = hash;
  slotEntry[slot] = entries.length;
  entries.push(entry);
  return entry;
}

/** Index into `entries` of the word with this FNV-1a hash, or -1. The caller compares the text. */
export function lookup(hash: number): number {
  for (let slot = hash & (tableSize - 1); ; slot = (slot + 1) & (tableSize - 1)) {
    const index = slotEntry[slot]!;
    if (index === -1 || slotHash[slot] === hash) return index;
  }
}

for (const [flag, spec] of classes) {
  const [single = '', ...multi] = spec.split('|');
  for (const w of single.split(' ')) if (w) entryFor(w).flags |= flag;
  for (const phrase of multi) {
    const parts = phrase.split(' ');
    const last = parts.pop()!;
    entryFor(last).phrases.push({ before: parts, flags: flag });
  }
}
if (entries.length > tableSize / 2) throw new Error('vocabulary table too full');
