/** Vocabulary classes, as bit flags so one lookup answers every class. */
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
];

/** Single words -> class flags. */
export const words = new Map<string, number>();
/** Multi-word phrases, keyed by their last word: the preceding words and the flags. */
export const phrases = new Map<string, { before: string[]; flags: number }[]>();

for (const [flag, spec] of classes) {
  const [single = '', ...multi] = spec.split('|');
  for (const w of single.split(' ')) if (w) words.set(w, (words.get(w) ?? 0) | flag);
  for (const phrase of multi) {
    const parts = phrase.split(' ');
    const last = parts.pop()!;
    const list = phrases.get(last) ?? [];
    list.push({ before: parts, flags: flag });
    phrases.set(last, list);
  }
}

/** Words that make a message small talk when they open it. */
export const chatOpeners = new Set(['hi', 'hello', 'hey', 'thanks', 'thank', 'ok', 'okay', 'cool', 'lol', 'yes', 'no', 'sure', 'good', 'bye']);
/** Words that make a message a question when they open it. */
export const questionOpeners = new Set(['what', 'who', 'when', 'where', 'which', 'whom', 'whose', 'how']);
