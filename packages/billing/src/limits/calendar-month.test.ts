import { describe, expect, it } from 'vitest';
import { monthAt, parseMonth } from './calendar-month.js';

describe('calendar months (UTC)', () => {
  it('puts an instant in its UTC month, whatever the local time zone says', () => {
    expect(monthAt(Date.parse('2025-01-31T23:59:59.999Z'))).toEqual({
      id: '2025-01',
      start: new Date('2025-01-01T00:00:00Z'),
      end: new Date('2025-02-01T00:00:00Z'),
    });
    expect(monthAt(Date.parse('2025-02-01T00:00:00Z')).id).toBe('2025-02');
    expect(monthAt(Date.parse('2024-12-31T23:30:00-05:00')).id).toBe('2025-01');
    expect(parseMonth('2024-12').end).toEqual(new Date('2025-01-01T00:00:00Z'));
  });

  it('refuses what is not YYYY-MM', () => {
    expect(() => parseMonth('2025-13')).toThrow(RangeError);
    expect(() => parseMonth('2025-1')).toThrow(RangeError);
  });
});
