/** A usage event or decision row as a journal keeps it: JSON, its `createdAt` an ISO string. */
export function encodeJournalRow(row: object): string {
  return JSON.stringify(row);
}

type Dated = { createdAt?: Date | string | null };

/** A parsed journal row with its `createdAt` a Date again (the writers expect Date objects). */
export function reviveDates<T extends Dated>(value: T): T {
  if (typeof value.createdAt === 'string') (value as { createdAt: Date }).createdAt = new Date(value.createdAt);
  return value;
}

/** The row back from its JSON. */
export function reviveJournalRow<T extends Dated>(raw: string): T {
  return reviveDates(JSON.parse(raw) as T);
}
