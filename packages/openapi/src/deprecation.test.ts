import { describe, expect, it } from 'vitest';
import { checkDeprecation, deprecationHeaders, deprecationNotice, httpDate } from './deprecation.js';
import type { RouteDeprecation } from './route-descriptor.js';

/** RFC 9110 §5.6.7 IMF-fixdate. */
const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const deprecation: RouteDeprecation = {
  deprecatedAt: '2026-03-01',
  sunsetAt: '2026-06-01T12:00:00Z',
  migrationUrl: 'https://docs.example.com/migrate/legacy-chat',
  successor: { method: 'post', path: '/v1/chat/completions' },
};

describe('httpDate', () => {
  it('writes IMF-fixdate in GMT', () => {
    expect(httpDate(new Date('1994-11-06T08:49:37Z'))).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(httpDate(new Date('2026-03-01'))).toMatch(imfFixdate);
  });
});

describe('deprecationHeaders', () => {
  it('sends Deprecation and Sunset as HTTP-dates and one Link with both relations', () => {
    expect(deprecationHeaders(deprecation)).toEqual({
      deprecation: 'Sun, 01 Mar 2026 00:00:00 GMT',
      sunset: 'Mon, 01 Jun 2026 12:00:00 GMT',
      link: '<https://docs.example.com/migrate/legacy-chat>; rel="deprecation", </v1/chat/completions>; rel="successor-version"',
    });
  });

  it('leaves out successor-version when no operation replaces it directly', () => {
    const { successor: _, ...indirect } = deprecation;
    expect(deprecationHeaders({ ...indirect, replacement: 'the Responses API' }).link).toBe('<https://docs.example.com/migrate/legacy-chat>; rel="deprecation"');
  });
});

describe('checkDeprecation', () => {
  it('accepts a policy-conform deprecation', () => {
    expect(() => checkDeprecation('POST /x', deprecation)).not.toThrow();
  });

  it.each([
    ['less than 90 days of notice', { sunsetAt: '2026-05-29' }, /at least 90 days/],
    ['a sunset before the deprecation', { sunsetAt: '2026-01-01' }, /at least 90 days/],
    ['a date that is not ISO-8601', { deprecatedAt: 'March 1st' }, /deprecatedAt must be an ISO-8601 date/],
    ['a relative migration note', { migrationUrl: '/docs/migrate' }, /absolute URL/],
    ['a templated successor', { successor: { method: 'get' as const, path: '/v1/models/{model}' } }, /concrete path/],
  ])('refuses %s', (_, patch, message) => {
    expect(() => checkDeprecation('POST /x', { ...deprecation, ...patch })).toThrow(message);
  });

  it('needs a successor or a named replacement', () => {
    const { successor: _, ...bare } = deprecation;
    expect(() => checkDeprecation('POST /x', bare)).toThrow(/successor or its replacement/);
  });

  it('takes 30 days of notice for a preview operation', () => {
    expect(() => checkDeprecation('POST /x', { ...deprecation, sunsetAt: '2026-04-01', preview: true })).not.toThrow();
    expect(() => checkDeprecation('POST /x', { ...deprecation, sunsetAt: '2026-03-20', preview: true })).toThrow(/at least 30 days/);
  });
});

describe('deprecationNotice', () => {
  it('names the replacement, the sunset and the migration note', () => {
    const notice = deprecationNotice(deprecation);
    expect(notice).toContain('use `POST /v1/chat/completions` instead');
    expect(notice).toContain('until at least 2026-06-01');
    expect(notice).toContain('https://docs.example.com/migrate/legacy-chat');
  });
});
