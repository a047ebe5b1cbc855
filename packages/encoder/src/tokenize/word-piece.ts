import { Tokenizer } from '@huggingface/tokenizers';

/** Tokenises texts for a BERT graph: WordPiece from the model's own `tokenizer.json`. */
export interface WordPiece {
  /** Token ids of one text with `[CLS]`/`[SEP]`, at most `maxTokens` long (content truncated first, like HF's truncation). */
  encode(text: string): number[];
}

/** Builds the tokenizer from a parsed `tokenizer.json`. Throws when it has no `[CLS]`/`[SEP]`. */
export function createWordPiece(tokenizerJson: object, maxTokens: number): WordPiece {
  const tokenizer = new Tokenizer(tokenizerJson, {});
  const cls = tokenizer.token_to_id('[CLS]');
  const sep = tokenizer.token_to_id('[SEP]');
  if (cls === undefined || sep === undefined) throw new Error('tokenizer.json has no [CLS]/[SEP] token');

  function encode(text: string): number[] {
    const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
    return [cls!, ...ids.slice(0, maxTokens - 2), sep!];
  }

  return { encode };
}
