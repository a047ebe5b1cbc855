import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.js';

const of = (text: string, type: string) =>
  extractEntities(text)
    .filter((entity) => entity.type === type)
    .map((entity) => entity.value);

describe('extractEntities', () => {
  it('finds emails and URLs', () => {
    const text = 'Write to ada.lovelace@example.com or see https://example.com/docs?x=1.';
    expect(of(text, 'email')).toEqual(['ada.lovelace@example.com']);
    expect(of(text, 'url')).toEqual(['https://example.com/docs?x=1']);
  });

  it('finds dates in ISO, numeric and written forms', () => {
    expect(of('Due 2026-03-14, moved from 3/7/2026 to March 21, 2026 or 5th June; call me tomorrow.', 'date')).toEqual([
      '2026-03-14',
      '3/7/2026',
      'March 21, 2026',
      '5th June',
      'tomorrow',
    ]);
  });

  it('tells people, organisations and places apart by suffixes and cue words', () => {
    const text = 'Yesterday I met Grace Hopper. She works at Contoso and lives in Lisbon; we signed with Acme Corp.';
    expect(of(text, 'person')).toEqual(['Grace Hopper']);
    expect(of(text, 'organization')).toEqual(['Contoso', 'Acme Corp']);
    expect(of(text, 'place')).toEqual(['Lisbon']);
  });

  it('does not take sentence-initial words or month names for names', () => {
    const text = 'The weather is fine. Thanks for the help in March.';
    expect(extractEntities(text).filter((entity) => ['person', 'organization', 'place'].includes(entity.type))).toEqual([]);
  });

  it('records facts the user states', () => {
    expect(of('Hi! My favourite colour is teal. I work for a bank. Remember that the budget is 40k.', 'fact')).toEqual([
      'My favourite colour is teal',
      'I work for a bank',
      'Remember that the budget is 40k',
    ]);
  });

  it('lists each entity once', () => {
    expect(of('Email bob@example.com, then bob@example.com again', 'email')).toEqual(['bob@example.com']);
  });
});
