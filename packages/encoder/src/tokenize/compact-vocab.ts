/** FNV-1a over a string's UTF-16 code units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * A WordPiece vocabulary (token -> id) held as one string of all tokens in id order, their starts
 * in an `Int32Array` and an open-addressing hash table of ids in another, instead of a `Map` of
 * 30,522 strings (plus the parsed JSON object and the id -> token array the tokenizer library keeps
 * beside it): ~0.8 MiB of the inference thread's heap where those held ~3.8 (docs/operations.md,
 * "Memory budget"). It is a `Map` so the tokenizer library can look tokens up in it unchanged: the
 * vocabulary's entries live in the arrays, entries `set` afterwards in the `Map` itself, found first.
 */
export class CompactVocab extends Map<string, number> {
  private readonly mask: number;
  private readonly slots: Int32Array;
  private shadowed = 0;

  /** `text` holds the tokens in id order, token `id` from `starts[id]` to `starts[id + 1]` (a dense vocabulary: ids 0 to n-1). */
  constructor(
    private readonly text: string,
    private readonly starts: Int32Array,
  ) {
    super();
    const count = starts.length - 1;
    let capacity = 1;
    while (capacity < 2 * count) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity);
    for (let id = 0; id < count; id++) {
      let slot = hashOf(text.slice(starts[id]!, starts[id + 1]!)) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    }
  }

  /** The vocabulary's id of `token`, undefined when it has none. */
  private find(token: string): number | undefined {
    const { slots, starts, text, mask } = this;
    for (let slot = hashOf(token) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const id = slots[slot]! - 1;
      const start = starts[id]!;
      if (starts[id + 1]! - start === token.length && text.startsWith(token, start)) return id;
    }
    return undefined;
  }

  override get(token: string): number | undefined {
    return super.size > 0 && super.has(token) ? super.get(token) : this.find(token);
  }

  override has(token: string): boolean {
    return this.get(token) !== undefined;
  }

  override set(token: string, id: number): this {
    if (this.find(token) === id) return this;
    if (!super.has(token) && this.find(token) !== undefined) this.shadowed++;
    return super.set(token, id);
  }

  /** Entries found by `get`: the vocabulary's and those set since (iteration sees only the latter). */
  override get size(): number {
    return this.starts.length - 1 + super.size - this.shadowed;
  }
}

/** The vocabulary of a `tokenizer.json` (`model.vocab`, token -> id); throws unless its ids are 0 to n-1, each once. */
export function compactVocab(vocab: Readonly<Record<string, number>>): CompactVocab {
  const entries = Object.entries(vocab);
  const tokens = new Array<string>(entries.length);
  for (const [token, id] of entries) {
    if (!Number.isInteger(id) || id < 0 || id >= entries.length || tokens[id] !== undefined) throw new Error(`the vocabulary's ids are not 0 to ${entries.length - 1} (${JSON.stringify(token)}: ${id})`);
    tokens[id] = token;
  }
  const starts = new Int32Array(entries.length + 1);
  for (let id = 0; id < entries.length; id++) starts[id + 1] = starts[id]! + tokens[id]!.length;
  return new CompactVocab(tokens.join(''), starts);
}
