/** ISO 639-1 code by lowercase English language name, built once from the platform's ICU data. */
let byName: Map<string, string> | undefined;

function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const display = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  const a = 'a'.charCodeAt(0);
  for (let first = 0; first < 26; first++) {
    for (let second = 0; second < 26; second++) {
      const code = String.fromCharCode(a + first, a + second);
      const name = display.of(code);
      if (name !== undefined && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), code);
    }
  }
  return byName;
}

/**
 * A provider's language label as an ISO 639-1 code: a code is kept (lowercased, region dropped:
 * `en-US` -> `en`; an ISO 639-3 code with a 639-1 equivalent shortened: `deu` -> `de`, as
 * ElevenLabs reports them), an English name is looked up (`english` -> `en`, as OpenAI's
 * `verbose_json` names it). Undefined when it is neither.
 */
export function languageCode(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const trimmed = label.trim().toLowerCase();
  const code = /^([a-z]{2,3})(?:[-_][a-z0-9]+)*$/.exec(trimmed);
  if (code && (code[1]!.length === 2 || !names().has(trimmed))) return new Intl.Locale(code[1]!).language;
  return names().get(trimmed);
}
