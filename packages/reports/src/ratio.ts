/** `part / whole`, or null when there is no whole to divide by. */
export function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/** `after - before`, or null when either side is unknown. */
export function difference(before: number | null, after: number | null): number | null {
  return before === null || after === null ? null : after - before;
}

/** Code-point order of nullable labels, null last: stable output whatever the database's collation. */
export function compareLabels(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
