/** A calendar month in UTC. */
export interface CalendarMonth {
  /** `YYYY-MM`. */
  id: string;
  /** First instant of the month. */
  start: Date;
  /** First instant of the next month. */
  end: Date;
}

const MONTH_ID = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The UTC calendar month holding `epochMs`. */
export function monthAt(epochMs: number): CalendarMonth {
  const date = new Date(epochMs);
  return monthOf(date.getUTCFullYear(), date.getUTCMonth());
}

/** The month named `YYYY-MM`; RangeError for anything else. */
export function parseMonth(id: string): CalendarMonth {
  const match = MONTH_ID.exec(id);
  if (match === null) throw new RangeError(`month must be YYYY-MM, got '${id}'`);
  return monthOf(Number(match[1]), Number(match[2]) - 1);
}

function monthOf(year: number, monthIndex: number): CalendarMonth {
  const start = new Date(Date.UTC(year, monthIndex, 1));
  const end = new Date(Date.UTC(year, monthIndex + 1, 1));
  return { id: start.toISOString().slice(0, 7), start, end };
}
