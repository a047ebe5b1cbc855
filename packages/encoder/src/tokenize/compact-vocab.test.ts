import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { weightsPackageDir } from '../model/weights-package.js';
import { compactVocab } from './compact-vocab.js';
import { createWordPiece } from './word-piece.js';

const tokenizerJson = (): object => JSON.parse(readFileSync(join(weightsPackageDir(), 'tokenizer.json'), 'utf8')) as object;

describe('compactVocab', () => {
  it('finds every token of a vocabulary and nothing else; entries set later come first', () => {
    const vocab = compactVocab({ '[UNK]': 0, a: 1, '##a': 2, é: 3, 漢: 4, '': 5 });
    expect(['[UNK]', 'a', '##a', 'é', '漢', ''].map((token) => vocab.get(token))).toEqual([0, 1, 2, 3, 4, 5]);
    expect([vocab.has('b'), vocab.has('##'), vocab.has('aa'), vocab.get('A')]).toEqual([false, false, false, undefined]);
    vocab.set('a', 1).set('b', 6).set('##a', 7);
    expect([vocab.get('b'), vocab.get('##a'), vocab.size]).toEqual([6, 7, 7]);
  });

  it('refuses ids that are not 0 to n-1', () => {
    expect(() => compactVocab({ a: 0, b: 2 })).toThrow(/not 0 to 1/);
    expect(() => compactVocab({ a: 1, b: 1 })).toThrow(/not 0 to 1/);
  });

  it("gives the library's own ids on texts that stress the normaliser, the splitter and WordPiece", () => {
    const library = new Tokenizer(tokenizerJson(), {});
    const compact = createWordPiece(tokenizerJson(), 512);
    const texts = ['Was Elvis Presley overrated?', 'Ünïcödé ﬁ café naïve İstanbul', '漢字かなカナ한국어 العربية 🚀👍🏽', '[CLS] [SEP] [UNK] [MASK] [PAD] ##ing ## #', 'ＡＢＣ１２３ a\u0000b\u200bc\td', 'x'.repeat(100), 'x'.repeat(101), '', '   '];
    for (const text of texts) expect(compact.encode(text)).toEqual([101, ...library.encode(text, { add_special_tokens: false }).ids, 102]);
  });
});
