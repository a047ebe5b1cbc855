import { checkFields } from './arguments.js';
import type { StreamEntry } from './interface.js';

interface StoredEntry {
  readonly ms: number;
  readonly seq: number;
  readonly id: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** An in-process stream: entries kept sorted by id, which is their append order. */
export class MemoryStream {
  readonly kind = 'stream';
  /** Streams never expire; the field lets one keyspace hold values and streams. */
  readonly expiresAt = Number.POSITIVE_INFINITY;
  private entries: StoredEntry[] = [];
  private lastMs = 0;
  private lastSeq = 0;

  /** Appends with a Redis-style `<ms>-<seq>` id that increases even if the clock goes back. */
  append(nowMs: number, fields: Record<string, string>): string {
    checkFields(fields);
    const ms = Math.floor(nowMs);
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.lastSeq = 0;
    } else {
      this.lastSeq += 1;
    }
    const id = `${this.lastMs}-${this.lastSeq}`;
    this.entries.push({ ms: this.lastMs, seq: this.lastSeq, id, fields: { ...fields } });
    return id;
  }

  /** `afterId` must be a valid id (see `checkStreamId`). */
  read(afterId: string, count: number): StreamEntry[] {
    if (count <= 0) return [];
    const [ms, seq] = parseId(afterId);
    const out: StreamEntry[] = [];
    const end = this.entries.length;
    for (let i = this.firstAfter(ms, seq); i < end && out.length < count; i += 1) {
      const entry = this.entries[i]!;
      out.push({ id: entry.id, fields: { ...entry.fields } });
    }
    return out;
  }

  get length(): number {
    return this.entries.length;
  }

  ack(ids: readonly string[]): void {
    if (ids.length === 0) return;
    const drop = new Set(ids);
    this.entries = this.entries.filter((entry) => !drop.has(entry.id));
  }

  /** Index of the first entry with an id strictly greater than `ms-seq` (binary search). */
  private firstAfter(ms: number, seq: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const entry = this.entries[mid]!;
      if (entry.ms < ms || (entry.ms === ms && entry.seq <= seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** `<ms>` alone means `<ms>-0`, as for an XRANGE start. */
function parseId(id: string): [number, number] {
  const dash = id.indexOf('-');
  if (dash === -1) return [Number(id), 0];
  return [Number(id.slice(0, dash)), Number(id.slice(dash + 1))];
}
