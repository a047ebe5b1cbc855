import { Tokenizer } from '@huggingface/tokenizers';

/** A padded batch in the graph's input layout: `[count, sequence]` int64, row-major. */
export interface TokenBatch {
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  count: number;
  sequence: number;
}

/** Tokenises texts for a BERT graph: WordPiece from the model's own `tokenizer.json`. */
export interface WordPiece {
  /** Token ids of one text with `[CLS]`/`[SEP]`, at most `maxTokens` long (content truncated first, like HF's truncation). */
  encode(text: string): number[];
  /** Tokenises and right-pads to the longest text of the batch (pad id 0, mask 0). */
  batch(texts: readonly string[]): TokenBatch;
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

  return {
    encode,
    batch(texts) {
      const encoded = texts.map(encode);
      const sequence = Math.max(...encoded.map((ids) => ids.length));
      const inputIds = new BigInt64Array(texts.length * sequence);
      const attentionMask = new BigInt64Array(texts.length * sequence);
      encoded.forEach((ids, row) => {
        for (let i = 0; i < ids.length; i++) {
          inputIds[row * sequence + i] = BigInt(ids[i]!);
          attentionMask[row * sequence + i] = 1n;
        }
      });
      return { inputIds, attentionMask, count: texts.length, sequence };
    },
  };
}
