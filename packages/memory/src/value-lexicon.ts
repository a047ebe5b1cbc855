/**
 * A gazetteer of values the shared encoder cannot type from the bare word (issue #35, twelfth
 * pass): MiniLM places "Monzo" nearest the person examples, "ING" the languages, "Ravi" nowhere
 * clear. A name is looked up here first; the encoder types what the lexicon does not know
 * (`value-kinds.ts`). Written as general lists of well-known names of each kind (the banks,
 * carriers and services of several countries, countries, islands and regions, cities, common first
 * names, sports), not from the held-out attributes. Entries written with capitals match only as
 * written ("Orange" the carrier, not "orange" the colour); lower-case entries match in any case.
 */
const LISTS: Readonly<Record<string, string>> = {
  bank: `ING|Monzo|Revolut|Barclays|HSBC|Santander|Lloyds|NatWest|Halifax|Nationwide|Starling|Chase|Citibank|Citi|Wells Fargo|Bank of America|Capital One|Deutsche Bank|Commerzbank|Sparkasse|Volksbank|Postbank|DKB|BNP Paribas|Société Générale|Crédit Agricole|La Banque Postale|UBS|Credit Suisse|ABN AMRO|Rabobank|N26|bunq|Wise|Chime|Ally|Schwab|TD Bank|TD|RBC|Scotiabank|BMO|CIBC|BBVA|CaixaBank|Sabadell|Bankinter|Nordea|Danske Bank|SEB|Swedbank|Handelsbanken|Intesa Sanpaolo|UniCredit|Standard Chartered|Metro Bank|TSB|Virgin Money|Triodos|US Bank|PNC|Truist|Millennium|Novo Banco|Erste|Raiffeisen|KBC|Belfius|Commonwealth Bank|Westpac|ANZ|NAB|Kiwibank|DBS|OCBC|Maybank|ICICI|HDFC|SBI|Nubank|Itaú|Bradesco`,
  carrier: `Vodafone|O2|Orange|T-Mobile|Telekom|Deutsche Telekom|Verizon|AT&T|Sprint|EE|Three UK|Giffgaff|Lebara|Lycamobile|Sky Mobile|Tesco Mobile|Virgin Mobile|Mint Mobile|Boost Mobile|US Mobile|Google Fi|Telstra|Optus|Rogers|Telus|Fido|Movistar|Telefónica|Telefonica|Swisscom|Sunrise|Free Mobile|SFR|Bouygues|Bouygues Telecom|TIM|Iliad|WindTre|KPN|Proximus|Telia|Telenor|Elisa|Airtel|Jio|1&1|Congstar|Aldi Talk|MEO|NOS|Vivo|Claro|Spark|Singtel`,
  streaming: `Netflix|Hulu|Disney Plus|Disney+|Prime Video|Amazon Prime|Amazon Prime Video|HBO Max|HBO|Apple TV|Apple TV+|Apple TV Plus|Paramount Plus|Paramount+|Peacock|Crunchyroll|YouTube TV|YouTube Premium|Sling|Fubo|Mubi|Now TV|Britbox|Showtime|Starz|Discovery Plus|Discovery+|Canal+|DAZN|Viaplay|Joyn|RTL+|Crave|Tubi|Pluto TV`,
  music: `Spotify|Apple Music|Tidal|Deezer|YouTube Music|Amazon Music|Pandora|SoundCloud|Qobuz|Napster`,
  browser: `Chrome|Google Chrome|Firefox|Safari|Edge|Microsoft Edge|Brave|Opera|Opera GX|Vivaldi|Arc|Chromium|Tor Browser|DuckDuckGo|Samsung Internet|LibreWolf|Waterfox`,
  place: `Afghanistan|Albania|Algeria|Argentina|Armenia|Australia|Austria|Azerbaijan|Bahamas|Bangladesh|Belarus|Belgium|Bolivia|Bosnia|Botswana|Brazil|Bulgaria|Cambodia|Cameroon|Canada|Chile|China|Colombia|Costa Rica|Croatia|Cuba|Cyprus|Czechia|the Czech Republic|Denmark|Ecuador|Egypt|England|Estonia|Ethiopia|Finland|France|Georgia|Germany|Ghana|Greece|Guatemala|Hungary|Iceland|India|Indonesia|Iran|Iraq|Ireland|Israel|Italy|Jamaica|Japan|Jordan|Kazakhstan|Kenya|Korea|Kosovo|Latvia|Lebanon|Lithuania|Luxembourg|Malaysia|Malta|Mexico|Moldova|Mongolia|Montenegro|Morocco|Nepal|the Netherlands|Holland|New Zealand|Nigeria|Norway|Pakistan|Panama|Peru|the Philippines|Poland|Portugal|Qatar|Romania|Russia|Scotland|Senegal|Serbia|Singapore|Slovakia|Slovenia|South Africa|Spain|Sri Lanka|Sweden|Switzerland|Syria|Taiwan|Tanzania|Thailand|Tunisia|Turkey|Uganda|Ukraine|Uruguay|the US|the USA|the UK|Venezuela|Vietnam|Wales|Zambia|Zimbabwe|Crete|Corsica|Sardinia|Sicily|Mallorca|Majorca|Menorca|Ibiza|Formentera|Gozo|Rhodes|Santorini|Mykonos|Corfu|Kos|Naxos|Paros|Zakynthos|Kefalonia|Madeira|the Azores|Tenerife|Gran Canaria|Lanzarote|Fuerteventura|the Canaries|the Canary Islands|Capri|Elba|Bali|Lombok|Phuket|Hawaii|Maui|Oahu|the Maldives|Mauritius|Zanzibar|Jersey|Guernsey|the Isle of Wight|Skye|the Algarve|Tuscany|Umbria|Provence|Brittany|Normandy|Cornwall|Devon|the Lake District|the Cotswolds|Andalusia|the Costa Brava|the Costa del Sol|the Riviera|the Amalfi Coast|Dalmatia|Istria|Bavaria|the Alps|the Dolomites|Lapland|Patagonia|Florida|California|Cape Cod|the Hamptons|Lisbon|Porto|Madrid|Barcelona|Valencia|Seville|Paris|Lyon|Marseille|Nice|Berlin|Munich|Hamburg|Cologne|Frankfurt|Vienna|Zurich|Geneva|Rome|Milan|Naples|Venice|Florence|Amsterdam|Rotterdam|Brussels|Antwerp|London|Manchester|Edinburgh|Glasgow|Dublin|Copenhagen|Stockholm|Oslo|Helsinki|Warsaw|Krakow|Prague|Budapest|Athens|Istanbul|Cairo|Marrakesh|Nairobi|Lagos|Cape Town|Dubai|Mumbai|Delhi|Bangalore|Bangkok|Hanoi|Seoul|Tokyo|Osaka|Kyoto|Beijing|Shanghai|Hong Kong|Sydney|Melbourne|Auckland|Toronto|Montreal|Vancouver|New York|Boston|Chicago|Seattle|San Francisco|Los Angeles|Austin|Miami|Mexico City|Bogotá|Lima|Santiago|Buenos Aires|São Paulo|Rio`,
  person: `Aaron|Adam|Ahmed|Aisha|Alex|Alice|Ali|Amir|Amy|Ana|Andrea|Andrew|Anna|Anne|Ben|Carlos|Carmen|Charlotte|Chen|Chloe|Chris|Claire|Daniel|David|Diego|Elena|Eli|Ella|Emma|Eric|Eva|Fatima|Felix|Freya|Grace|Hana|Hannah|Hassan|Helen|Hiro|Ian|Isabel|Ivan|Jack|Jake|James|Jane|Jason|Javier|Jen|Jess|John|Jonas|Jorge|José|Juan|Julia|Kai|Karim|Kate|Kenji|Kim|Laura|Leila|Lena|Leo|Liam|Lily|Lina|Lucas|Lucy|Luis|Luka|Maria|Marco|Mark|Marta|Mateo|Max|Maya|Mei|Mia|Michael|Mike|Mohammed|Nadia|Naomi|Nina|Noah|Nora|Olga|Oliver|Olivia|Omar|Pablo|Paul|Pedro|Peter|Priya|Rahul|Raj|Ravi|Rosa|Ryan|Sam|Sara|Sarah|Simon|Sofia|Sophie|Tom|Tim|Tomás|Yara|Yuki|Zara|Zoe`,
  sport: `tennis|squash|rugby|handball|badminton|volleyball|football|soccer|basketball|golf|hockey|ice hockey|cricket|baseball|softball|netball|table tennis|padel|pickleball|water polo|lacrosse|ultimate frisbee|fencing|rowing|judo|karate|taekwondo|boxing|kickboxing|wrestling|climbing|bouldering|triathlon`,
};

/** Every entry, lower-cased, with its kind and whether it must match as written. */
const ENTRIES = new Map<string, { kind: string; exact: string | undefined }>();
for (const [kind, list] of Object.entries(LISTS)) {
  // "the Algarve" and "Algarve" alike: the article is not looked up.
  for (const entry of list.split('|').map((e) => e.replace(/^the /, ''))) ENTRIES.set(entry.toLowerCase(), { kind, exact: /[A-Z]/.test(entry) ? entry : undefined });
}
/** Most words an entry has ("the Isle of Wight"). */
const LONGEST = Math.max(...[...ENTRIES.keys()].map((e) => e.split(' ').length));

/**
 * The gazetteer's one-word entries that are also ordinary words ("orange", "chase", "edge",
 * "grace"): opening a sentence, their capital is the sentence's, not a name's. Derived once from
 * the lists above: each one-word entry written capitalised whose lower-case form is a word of
 * Debian's `wamerican-small` list (all-capital entries such as "NAB" or "US" left out: their
 * capitals say name anywhere).
 */
const ALSO_WORDS: ReadonlySet<string> = new Set(
  'nationwide chase wise chime ally orange sprint sunrise spark peacock sling crave tidal chrome safari edge brave opera arc chromium chile china turkey canaries jersey nice amir grace jack lily maria mark mike peter'.split(' '),
);

/** Whether a capitalised word is known only as a name: the gazetteer has it as written, and it is no ordinary word. */
export function onlyAName(word: string): boolean {
  const lower = word.toLowerCase();
  return ENTRIES.get(lower)?.exact === word && !ALSO_WORDS.has(lower);
}

/** A capitalised word that opens a sentence (at the start, or after `.`, `!`, `?`, `:`), alone: no capitalised word (but the pronoun I) or number after it. */
const OPENING_WORD = /(^\s*|[.!?:]["”’')]*\s+)(["“‘(]*)([A-Z][a-z]+)\b(?!\s+(?!I\b)[A-Z0-9])/g;

/**
 * A statement with the capital of each sentence's opening word taken off, unless the word is
 * known only as a name: a sentence-initial capital says nothing ("Orange is my favourite colour",
 * "Apple pie is what I bake"), so the value readers must not read a name from it. "Monzo is my
 * bank" and "Ravi is my best friend" keep theirs (the gazetteer knows them as names only), and so
 * does a run whose next word is capitalised too ("Apple Music is what I use").
 */
export function plainOpening(text: string): string {
  return text.replace(OPENING_WORD, (whole, before: string, quote: string, word: string) => (onlyAName(word) ? whole : `${before}${quote}${word.toLowerCase()}`));
}

/** A value named by the lexicon in a text: its kind and the words as written. */
export interface NamedValue {
  kind: string;
  value: string;
}

/**
 * The lexicon's values a statement names, longest entry first at each word ("Deutsche Bank", not
 * "Deutsche"); a sentence's capitalised opening word is a name only when known only as one
 * (`plainOpening`: "Orange is my favourite colour" names no carrier).
 */
export function namedValues(statement: string): NamedValue[] {
  return lookUp(plainOpening(statement));
}

/** The lexicon's values in a text as written, capitals taken as given. */
function lookUp(text: string): NamedValue[] {
  const words = text.match(/[\p{L}\d][\p{L}\d&+'’-]*/gu) ?? [];
  const lower = words.map((w) => w.toLowerCase());
  const out: NamedValue[] = [];
  for (let i = 0; i < words.length; i++) {
    // The phrases of 1..LONGEST words that start here, built once each, then tried longest first.
    const phrases: string[] = [lower[i]!];
    for (let n = 1; n < LONGEST && i + n < words.length; n++) phrases.push(`${phrases[n - 1]} ${lower[i + n]}`);
    for (let n = phrases.length; n >= 1; n--) {
      const entry = ENTRIES.get(phrases[n - 1]!.replace(/['’]s$/, ''));
      if (entry === undefined) continue;
      const written = words.slice(i, i + n).join(' ').replace(/['’]s$/, '');
      if (entry.exact !== undefined && entry.exact !== written) continue;
      out.push({ kind: entry.kind, value: written });
      i += n - 1;
      break;
    }
  }
  return out;
}

/**
 * The kind of a value when the lexicon names values of one kind in it, else undefined. A value is
 * read off its statement already (`valuePhrase`, `pairValues`: openings made plain there), so its
 * own first capital is taken as written: "Orange" read from "I switched to Orange" is the carrier.
 */
export function lexiconKind(value: string): string | undefined {
  const kinds = new Set(lookUp(value).map((v) => v.kind));
  return kinds.size === 1 ? [...kinds][0] : undefined;
}
