/**
 * Which rows of a partition hold each subject's points (memory keeps one end user's facts per
 * subject), so a search for one subject scores that subject's rows only: its cost follows the end
 * user's facts, not every end user's of the organisation. Kept in step with the partition's rows,
 * which move when a row is deleted (the last row fills the hole).
 */
export class SubjectRows {
  private readonly rows = new Map<string, Set<number>>();

  /** The rows of `subject` (none when it has no point). */
  of(subject: string): readonly number[] {
    const rows = this.rows.get(subject);
    return rows ? [...rows] : [];
  }

  add(subject: string | undefined, row: number): void {
    if (subject === undefined) return;
    const rows = this.rows.get(subject);
    if (rows) rows.add(row);
    else this.rows.set(subject, new Set([row]));
  }

  remove(subject: string | undefined, row: number): void {
    if (subject === undefined) return;
    const rows = this.rows.get(subject);
    rows?.delete(row);
    if (rows?.size === 0) this.rows.delete(subject);
  }

  /** The point of `subject` at row `from` now sits at row `to`. */
  move(subject: string | undefined, from: number, to: number): void {
    this.remove(subject, from);
    this.add(subject, to);
  }
}
