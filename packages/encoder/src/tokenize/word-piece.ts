import { Tokenizer } from '@huggingface/tokenizers';
import { compactVocab } from './compact-vocab.js';

/** Tokenises texts for a BERT graph: WordPiece from the model's own `tokenizer.json`. */
export interface WordPiece {
  /** Token ids of one text with `[CLS]`/`[SEP]`, at most `maxTokens` long (content truncated first, like HF's truncation). */
  encode(text: string): number[];
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tokens of `model.vocab` the library reads while it builds the tokenizer: its unknown token and the added tokens. */
function builtWith(json: Json, model: Json, vocab: Json): Json {
  const added = Array.isArray(json.added_tokens) ? json.added_tokens.map((token: unknown) => (isRecord(token) ? token.content : undefined)) : [];
  return Object.fromEntries([model.unk_token, ...added].filter((token) => typeof token === 'string' && token in vocab).map((token) => [token, vocab[token as string]]));
}

/**
 * The library's tokenizer over `tokenizerJson`, its vocabulary swapped for a {@link compactVocab}
 * (the same lookups, a sixth of the memory): built from a copy whose vocabulary holds only the
 * tokens it reads while building, so neither the parsed JSON's 30,522 entries nor a `Map` of them
 * stays alive. A model that is not a WordPiece with a dense vocabulary keeps the library's own.
 */
function compactTokenizer(tokenizerJson: object): Tokenizer {
  const json = tokenizerJson as Json;
  const model = json.model;
  const vocab = isRecord(model) && model.type === 'WordPiece' && isRecord(model.vocab) ? model.vocab : undefined;
  if (!isRecord(model) || !vocab || !Object.values(vocab).every((id) => typeof id === 'number')) return new Tokenizer(tokenizerJson, {});
  const compact = compactVocab(vocab as Record<string, number>);
  const tokenizer = new Tokenizer({ ...json, model: { ...model, vocab: builtWith(json, model, vocab) } }, {});
  if (!tokenizer.model) throw new Error('tokenizer.json has no model');
  for (const [token, id] of tokenizer.model.tokens_to_ids) compact.set(token, id);
  tokenizer.model.tokens_to_ids = compact;
  return tokenizer;
}

/** Builds the tokenizer from a parsed `tokenizer.json`. Throws when it has no `[CLS]`/`[SEP]`. */
export function createWordPiece(tokenizerJson: object, maxTokens: number): WordPiece {
  const tokenizer = compactTokenizer(tokenizerJson);
  const cls = tokenizer.token_to_id('[CLS]');
  const sep = tokenizer.token_to_id('[SEP]');
  if (cls === undefined || sep === undefined) throw new Error('tokenizer.json has no [CLS]/[SEP] token');

  function encode(text: string): number[] {
    const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
    return [cls!, ...ids.slice(0, maxTokens - 2), sep!];
  }

  return { encode };
}
