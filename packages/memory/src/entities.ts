/** Kinds of entity {@link extractEntities} finds. */
export type EntityType = 'person' | 'organization' | 'place' | 'date' | 'email' | 'url' | 'fact';

export interface MemoryEntity {
  type: EntityType;
  /** The entity as written (facts: the clause the user stated). */
  value: string;
}

const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"')\]]+/g;
const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const DATE_PATTERNS = [
  /\b\d{4}-\d{2}-\d{2}\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g,
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)? (?:${MONTHS})\\.?(?:,? \\d{4})?\\b`, 'g'),
  new RegExp(`\\b(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?\\b`, 'g'),
  /\b(?:today|tomorrow|yesterday|(?:next|last) (?:week|month|year|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday))\b/gi,
];
const ORG_SUFFIX = /^(?:Inc|Ltd|LLC|GmbH|AG|SA|PLC|Corp|Corporation|Company|Co|Group|Bank|University|Foundation|Labs|Technologies|Systems)\.?$/;
const PERSON_TITLE = /^(?:Mr|Mrs|Ms|Dr|Prof|Sir|Dame)\.?$/;
/** Capitalised runs: "Ada Lovelace", "Acme Corp", "New York". */
const CAPITALISED_RUN = /\b(?:(?:Mr|Mrs|Ms|Dr|Prof)\. )?[A-Z][a-zA-Z'’-]+(?: (?:of |de |van |von )?[A-Z][a-zA-Z'’-]*)*/g;
const STOPWORDS = new Set(
  'I The A An This That These Those It He She We They You My Our Your Their His Her Its What When Where Who Why How Hi Hello Hey Please Thanks Thank Yes No Ok Okay Also And But Or If Then So Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(
    ' ',
  ),
);
const MONTH_WORDS = new Set(MONTHS.split('|'));

/** Cue words before a name: "with Ada", "in Paris", "at Acme". */
const PLACE_CUE = /\b(?:in|from|to|near|visit(?:ing|ed)?|live[sd]? in|based in)\s+$/i;
const ORG_CUE = /\b(?:at|for|join(?:ed)?|work(?:s|ed)? (?:at|for)|employed by|customer of)\s+$/i;
const PERSON_CUE = /\b(?:name is|called|named|with|met|ask|tell|told|call|email(?:ed)?|colleague|manager|boss|wife|husband|friend)\s+$/i;

/** Facts the user states about themselves or their world: "my X is Y", "I live in …", "remember that …". */
const FACT_PATTERNS = [
  /\bmy [a-z][a-z ]{1,40}? (?:is|are|was) [^.!?\n]{1,120}/gi,
  /\bI (?:am|'m|live|work|prefer|like|love|hate|use|have|own|need) [^.!?\n]{1,120}/gi,
  /\b(?:remember|note) that [^.!?\n]{1,160}/gi,
  /\bwe (?:are|use|have|need|prefer) [^.!?\n]{1,120}/gi,
];

function collect(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[0].trim());
}

function classifyName(name: string, before: string): EntityType | undefined {
  const words = name.split(' ');
  if (words.every((word) => STOPWORDS.has(word) || MONTH_WORDS.has(word.replace(/\.$/, '')))) return undefined;
  if (ORG_SUFFIX.test(words.at(-1) ?? '')) return 'organization';
  if (PERSON_TITLE.test(words[0] ?? '')) return 'person';
  if (ORG_CUE.test(before)) return 'organization';
  if (PLACE_CUE.test(before)) return 'place';
  if (PERSON_CUE.test(before)) return 'person';
  // Two or three capitalised words with no cue read most often as a person's name.
  if (words.length >= 2 && words.length <= 3 && words.every((word) => /^[A-Z][a-z'’-]+$/.test(word))) return 'person';
  return undefined;
}

/**
 * People, organisations, places, dates, emails, URLs and facts the user stated, found by
 * deterministic rules (patterns for the structured kinds; capitalisation plus cue words such
 * as "at", "in", "with" or a suffix such as "Inc" for names). Each (type, value) at most once,
 * in order of first appearance within its kind. Precision over recall: an unclassifiable
 * capitalised word is left out rather than guessed.
 */
export function extractEntities(text: string): MemoryEntity[] {
  const found: MemoryEntity[] = [];
  const seen = new Set<string>();
  const add = (type: EntityType, value: string) => {
    const key = `${type}\u0000${value.toLowerCase()}`;
    if (value.length === 0 || seen.has(key)) return;
    seen.add(key);
    found.push({ type, value });
  };

  for (const email of collect(text, EMAIL)) add('email', email);
  for (const url of collect(text, URL_PATTERN)) add('url', url.replace(/[.,;:]+$/, ''));
  // Names are looked for in the text without emails and URLs, whose parts are capitalised too.
  const prose = text.replace(EMAIL, ' ').replace(URL_PATTERN, ' ');
  const dates = DATE_PATTERNS.flatMap((pattern) => [...prose.matchAll(pattern)]).sort((a, b) => a.index - b.index);
  for (const date of dates) add('date', date[0]);
  for (const match of prose.matchAll(CAPITALISED_RUN)) {
    let name = match[0].replace(/[.'’-]+$/, '');
    const words = name.split(' ');
    // A sentence-initial stopword ("The Acme Corp") is not part of the name.
    while (words.length > 1 && STOPWORDS.has(words[0]!)) words.shift();
    name = words.join(' ');
    const type = classifyName(name, prose.slice(0, match.index));
    if (type) add(type, name);
  }
  for (const pattern of FACT_PATTERNS) for (const fact of collect(text, pattern)) add('fact', fact);
  return found;
}
