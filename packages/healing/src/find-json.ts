/** A stretch of text that looks like one JSON object or array. */
export interface JsonSpan {
  start: number;
  /** Exclusive. */
  end: number;
  /** The text ended before the value closed (inside a string or with brackets open). */
  truncated: boolean;
}

/**
 * Finds up to `limit` top-level JSON-looking values in model output, in order: each starts at one of
 * `openers` (`{`, or `{[` when an array may be the answer) and ends where its brackets balance,
 * outside strings. Only locates text; parsing and repair are left to JSON.parse and the repair
 * library. Single-quoted strings count as strings when they open where a value or key can start,
 * so an apostrophe in prose does not swallow the rest of the answer.
 */
export function findJsonSpans(text: string, openers: string, limit: number): JsonSpan[] {
  const spans: JsonSpan[] = [];
  let from = 0;
  while (spans.length < limit) {
    const start = indexOfAny(text, openers, from);
    if (start < 0) break;
    const end = closingIndex(text, start);
    if (end < 0) {
      spans.push({ start, end: text.length, truncated: true });
      break;
    }
    spans.push({ start, end, truncated: false });
    from = end;
  }
  return spans;
}

/** Index just past the bracket that closes the value opened at `start`, or -1 when it never closes. */
function closingIndex(text: string, start: number): number {
  let depth = 0;
  let quote = '';
  let escaped = false;
  let previous = '';
  for (let i = start; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || (c === "'" && '{[,:'.includes(previous))) quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    if (c.trim() !== '') previous = c;
  }
  return -1;
}

function indexOfAny(text: string, chars: string, from: number): number {
  let best = -1;
  for (const c of chars) {
    const i = text.indexOf(c, from);
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
}

/** The content of the first markdown code fence, and whether any text stood outside it. */
export interface Unfenced {
  inner: string;
  prose: boolean;
}

const fenceOpen = /```[\w+.-]*[ \t]*\n?/;
const fenceCloseOnItsLine = /\n[ \t]*```/;

/**
 * Takes the JSON out of a markdown code fence (```` ```json ... ``` ````), the commonest wrapping
 * models add. The fence closes at the first ```` ``` ```` that starts a line (a JSON string cannot
 * hold a raw newline, so a code sample inside a value does not end it), else at the last one; a
 * fence that never closes (a truncated answer) runs to the end. Only fences that open before the
 * first `{`/`[` count: a fence inside a JSON string value is content.
 */
export function unfence(text: string, openers: string): Unfenced | undefined {
  const open = fenceOpen.exec(text);
  if (!open) return undefined;
  const firstOpener = indexOfAny(text, openers, 0);
  if (firstOpener >= 0 && firstOpener < open.index) return undefined;
  const from = open.index + open[0].length;
  const onItsLine = fenceCloseOnItsLine.exec(text.slice(from));
  const last = text.lastIndexOf('```');
  const close = onItsLine ? from + onItsLine.index : last >= from ? last : text.length;
  const after = close < text.length ? text.slice(text.indexOf('```', close) + 3) : '';
  const before = text.slice(0, open.index);
  return { inner: text.slice(from, close).trim(), prose: before.trim() !== '' || after.trim() !== '' };
}
