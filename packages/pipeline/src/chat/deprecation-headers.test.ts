import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { deprecationHeaders } from './deprecation-headers.js';

const base = createCatalog().get('openai/gpt-4o-mini')!;
const now = Date.parse('2027-03-10T15:00:00Z');

describe('deprecation headers', () => {
  it('announce a retiring model: Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to its replacement', () => {
    const headers = deprecationHeaders({ ...base, retiresAt: '2027-06-30T00:00:00.000Z', deprecatedAt: '2027-01-15T00:00:00.000Z', replacement: 'openai/gpt-4.1-mini' }, now);
    expect(headers).toEqual({
      deprecation: `@${Date.parse('2027-01-15T00:00:00Z') / 1000}`,
      sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      link: '</v1/models/openai%2Fgpt-4.1-mini>; rel="successor-version"',
    });
  });

  it('without an announcement date, say the model is deprecated as of today; without a replacement, send no Link', () => {
    const headers = deprecationHeaders({ ...base, retiresAt: '2027-06-30T00:00:00.000Z' }, now);
    expect(headers).toEqual({ deprecation: `@${Date.parse('2027-03-10T00:00:00Z') / 1000}`, sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' });
  });

  it('say nothing for a model without a retirement date, or once it has passed', () => {
    expect(deprecationHeaders(base, now)).toEqual({});
    expect(deprecationHeaders({ ...base, retiresAt: '2027-03-01T00:00:00.000Z' }, now)).toEqual({});
  });
});
