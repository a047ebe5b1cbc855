import { describe, expect, it } from 'vitest';
import { languageCode } from './language-code.js';

describe('languageCode', () => {
  it('reads codes, regions and ISO 639-3 codes as ISO 639-1, and English names as their code', () => {
    expect(['en', 'EN-us', 'pt_BR', 'deu', 'eng', 'english', 'German', 'haitian creole'].map(languageCode)).toEqual(['en', 'en', 'pt', 'de', 'en', 'en', 'de', 'ht']);
  });

  it('keeps a 639-3 code without a shorter one, and gives up on anything else', () => {
    expect(languageCode('yue')).toBe('yue');
    expect(languageCode('klingonese')).toBeUndefined();
    expect(languageCode(undefined)).toBeUndefined();
  });
});
