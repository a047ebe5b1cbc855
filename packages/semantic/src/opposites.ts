import { stem } from './embedder/tokens.js';

/**
 * Word pairs that turn a question into another when one replaces the other ("how to lose weight"
 * / "how to gain weight", "cheapest" / "most expensive", "before" / "after"): to a sentence
 * encoder they are close neighbours, so the near-miss guard compares them by list. Stemmed with
 * {@link stem} on load.
 */
const pairs =
  'lose gain|loss gain|increase decrease|increase reduce|buy sell|buyer seller|best worst|better worse|cheap expensive|cheapest expensive|' +
  'cheaper expensive|before after|up down|maximum minimum|max min|more less|most least|fast slow|faster slower|fastest slowest|easy hard|' +
  'easier harder|easiest hardest|pros cons|advantage disadvantage|start stop|male female|men women|man woman|boy girl|boys girls|' +
  'import export|upload download|rise fall|high low|higher lower|highest lowest|hot cold|true false|good bad|love hate|like dislike|' +
  'win lose|open close|first last|young old|younger older|big small|large small|bigger smaller|biggest smallest|largest smallest|' +
  'positive negative|rich poor|richest poorest|north south|east west|left right|add remove|enable disable|install uninstall|' +
  'encrypt decrypt|compress decompress|strong weak|stronger weaker|light heavy|early late|earlier later|past future|inside outside|' +
  'above below|husband wife|boyfriend girlfriend|father mother|son daughter|brother sister|legal illegal|possible impossible|' +
  'safe unsafe|healthy unhealthy|happy sad|success failure|agree disagree|accept reject|profit loss|pass fail|allow block|' +
  'teacher student|employer employee|sender receiver|input output|client server|frontend backend|long short|longer shorter|' +
  'longest shortest|wide narrow|thick thin|deep shallow|odd even|day night|summer winter|morning evening|yesterday tomorrow|' +
  'ascending descending|top bottom|front back|forward backward|public private|online offline|wet dry|full empty|black white|' +
  'winner loser|attack defend|offense defense|send receive|lend borrow|push pull|enter exit|arrival departure|include exclude|' +
  'internal external|natural artificial|manual automatic|visible invisible|alive dead|birth death|single married|celsius fahrenheit|' +
  'kilometer mile|kilometers miles|km miles|kg pounds|kilogram pound|meter foot|meters feet|cm inches|liter gallon|liters gallons|' +
  'encode decode|encoding decoding|serialize deserialize|lowercase uppercase|minimum maximum|overweight underweight|overestimate underestimate|' +
  'import export|inhale exhale|expand collapse|expensive cheap|wake sleep|hire fire|borrow lend|bull bear|bullish bearish|deposit withdraw|' +
  'charge discharge|credit debit|asleep awake|sunrise sunset|sweet sour|fat thin|gain lose|join leave|begin end|beginning end|include omit|' +
  'open closed|raise lower|in out|heat cool|heating cooling|warm cool|show hide|hottest coldest|warmest coldest|warmer colder|login logout';

const opposite = new Map<string, Set<string>>();
for (const pair of pairs.split('|')) {
  const [a, b] = pair.split(' ').map(stem) as [string, string];
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const set = opposite.get(x) ?? new Set<string>();
    set.add(y);
    opposite.set(x, set);
  }
}

/** Whether one text has a word whose opposite only the other has ("lose" / "gain"): both are stemmed word sets. */
export function opposed(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const word of a) {
    if (b.has(word)) continue;
    const others = opposite.get(word);
    if (others) for (const other of others) if (b.has(other) && !a.has(other)) return true;
  }
  return false;
}
