import { randomUUID } from 'node:crypto';
import type { VectorMatch } from '@svc/semantic';
import { type CorrectionSettings, decideWrite, type WriteDecision } from './corrections.js';
import { type ExtractedFact, extractFacts } from './extract-facts.js';
import { statementCore } from './fact-slots.js';
import { attributeNear } from './memory-index.js';
import { NEIGHBOURS, type MemoryParts, type StoredMemoryRow } from './memory-parts.js';
import { historyPointOf, MEMORY_SCOPE, type StoredMemory, pointOf } from './memory-points.js';
import type { MemoryScope } from './memory-scope.js';
import { redactPii } from './redact-pii.js';
import { sameSubject } from './subject-links.js';
import { onlyOneOfItsKind, onlyOneOfItsTypedKind } from './kind-links.js';
import { oneHabitOfItsTime } from './routine-links.js';
import { sameKindOfValue } from './typed-links.js';
import { sameValueType } from './value-types.js';

/** How the write side batches and bounds its work (defaults in `createMemoryStore`). */
export interface MemoryWriteSettings extends CorrectionSettings {
  /** Most `remember` calls in flight; further ones are dropped and counted. */
  maxPending: number;
  /** Facts are written in batches, at most this long after the first one queued. */
  flushMs: number;
  /** A batch is written at once when it holds this many facts. */
  batchSize: number;
  onError?: ((error: unknown) => void) | undefined;
  onRetired?: ((orgId: string, ids: string[]) => void) | undefined;
}

const chainKey = (orgId: string, subject: string) => `${orgId}\u0000${subject}`;

/**
 * The write side of a memory store: facts are embedded and indexed in the background, one chain
 * per subject (facts of one end user merge in the order they were said), and written to the
 * relational store in batches.
 */
export class MemoryWrites {
  private readonly pending = new Set<Promise<void>>();
  /** Facts indexed but not yet written, by id (recall reads them from their points). */
  private readonly queued = new Map<string, StoredMemoryRow>();
  private readonly chains = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** The last batch written: deletions wait for it, so a removed fact is not written back after. */
  private written: Promise<unknown> = Promise.resolve();
  private dropped = 0;
  private failed = 0;

  constructor(
    private readonly parts: MemoryParts,
    private readonly settings: MemoryWriteSettings,
  ) {}

  /** Queues the facts of `userText` for `scope`; how many, 0 when none or saturated. */
  remember(scope: MemoryScope, userText: string, options: { redactPii?: boolean }): number {
    const text = options.redactPii ? redactPii(userText).text : userText;
    const facts = extractFacts(text);
    if (facts.length === 0) return 0;
    if (this.pending.size >= this.settings.maxPending) {
      this.dropped++;
      return 0;
    }
    const key = chainKey(scope.orgId, scope.subject);
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.storeFacts(scope, facts));
    const settled = next.catch(() => undefined);
    this.chains.set(key, settled);
    void settled.then(() => {
      if (this.chains.get(key) === settled) this.chains.delete(key);
    });
    this.track(next);
    return facts.length;
  }

  /** Settles when the facts of the subject being embedded now are indexed. */
  async subjectSettled(orgId: string, subject: string): Promise<void> {
    await this.chains.get(chainKey(orgId, subject));
  }

  /** Drops queued, unwritten facts (they were forgotten or evicted). */
  dropQueued(orgId: string, target: { ids: readonly string[] } | { subject: string }): void {
    const ids = 'ids' in target ? new Set(target.ids) : undefined;
    for (const [id, row] of this.queued) {
      if (row.orgId === orgId && (ids ? ids.has(id) : row.subject === (target as { subject: string }).subject)) this.queued.delete(id);
    }
  }

  /** Resolves when every queued write has settled (tests, shutdown). */
  async idle(): Promise<void> {
    do {
      while (this.pending.size > 0) await Promise.all([...this.pending]);
      this.flush();
    } while (this.pending.size > 0);
  }

  stats(): { pending: number; dropped: number; failed: number } {
    return { pending: this.pending.size + this.queued.size, dropped: this.dropped, failed: this.failed };
  }

  private track(task: Promise<void>): void {
    const tracked = task
      .catch((error: unknown) => {
        this.failed++;
        this.settings.onError?.(error);
      })
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Writes every queued fact in one statement; when that fails, each organisation's on its own. */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued.size === 0) return;
    const batch = [...this.queued.values()];
    const { records } = this.parts;
    const written = this.written.catch(() => undefined).then(() => records.saveMany(batch)).catch(async () => {
      const byOrg = new Map<string, StoredMemoryRow[]>();
      for (const row of batch) byOrg.set(row.orgId, [...(byOrg.get(row.orgId) ?? []), row]);
      const results = await Promise.allSettled([...byOrg.values()].map((rows) => records.saveMany(rows)));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw failure.reason;
      return 0;
    });
    this.written = written;
    this.track(
      written.then(() => undefined).finally(() => {
        for (const row of batch) if (this.queued.get(row.id) === row) this.queued.delete(row.id);
      }),
    );
  }

  private queue(row: StoredMemoryRow): void {
    this.queued.set(row.id, row);
    if (this.queued.size >= this.settings.batchSize) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.settings.flushMs);
      this.timer.unref?.();
    }
  }

  private async storeFacts(scope: MemoryScope, facts: readonly ExtractedFact[]): Promise<void> {
    const { embedder, vectors } = this.parts;
    const vectorsOf = await embedder.embed(facts.map((fact) => statementCore(fact.text)));
    const written = new Set<string>();
    for (const [i, stated] of facts.entries()) {
      const vector = vectorsOf[i]!;
      const fact = await this.withAttribute(stated, vector);
      const neighbours = await vectors.search(vector, { orgId: scope.orgId, scope: MEMORY_SCOPE, subject: scope.subject, limit: NEIGHBOURS, minScore: -1 });
      const habit = this.settings.corrections ? oneHabitOfItsTime(fact, neighbours, { written }) : undefined;
      const decided = decideWrite(fact, neighbours, this.settings, written, habit);
      const typed = decided.kind === 'add' && this.settings.corrections ? await this.lastResort(fact, neighbours, written) : undefined;
      const decision: WriteDecision = typed ? { kind: 'supersede', old: typed } : decided;
      if (decision.kind === 'skip') continue;
      if (decision.kind === 'remove') await this.remove(decision.old);
      if (decision.kind === 'supersede') {
        // It gives the attribute the old fact gave: it fills that slot too ("I eat fish again" after "I am vegetarian").
        const slot = fact.slot ?? decision.old.slot ?? undefined;
        const row = await this.index(this.rowOf(scope, { ...fact, ...(slot ? { slot } : {}) }, vector, undefined), vector, fact.attribute);
        await this.retire(decision.old, row.id);
        written.add(row.id);
        continue;
      }
      if (decision.kind === 'remove' && !decision.store) continue;
      const row = await this.index(this.rowOf(scope, fact, vector, decision.kind === 'merge' ? decision.into : undefined), vector, fact.attribute);
      written.add(row.id);
    }
  }

  /** A fact that linked nothing: for a change, the stored fact whose value is of the same kind in the same frame, else the one about the same subject; for any, the one about the same thing with a value of the same kind; last, for a change, the one fact naming a value of the kind the gazetteer reads in it. */
  private async lastResort(fact: ExtractedFact, neighbours: readonly VectorMatch[], written: ReadonlySet<string>): Promise<StoredMemory | undefined> {
    const { embedder } = this.parts;
    const change = fact.change === 'update' ? ((await sameValueType(embedder, fact, neighbours, { written })) ?? (await sameSubject(embedder, fact, neighbours, { written }))) : undefined;
    const { kinds, changeValues } = this.parts;
    const found = change ?? (await sameKindOfValue(kinds, fact, neighbours, { written })) ?? onlyOneOfItsKind(fact, neighbours, { written });
    return found ?? (changeValues ? await onlyOneOfItsTypedKind(changeValues, fact, neighbours, { written }) : undefined);
  }

  /** The fact with the slot of the attribute it gives, when its patterns named none and the encoder places it near one. */
  private async withAttribute(fact: ExtractedFact, vector: Float32Array): Promise<ExtractedFact> {
    if (fact.change === 'forget') return fact;
    const attribute = await attributeNear(this.parts, fact.text, vector);
    if (attribute === undefined) return fact;
    // The patterns' slots are surer than the encoder, and "my X" ones are what a question names.
    const slot = fact.slot !== undefined || fact.change === 'retract' ? undefined : await this.parts.attributes.slotOf(vector);
    return { ...fact, attribute, ...(slot ? { slot } : {}) };
  }

  /** Makes a row recallable at once (its vector) and queues it for the table. */
  private async index(row: StoredMemoryRow, vector: Float32Array, attribute: string | undefined): Promise<StoredMemoryRow> {
    await this.parts.vectors.upsert([pointOf(row, vector, this.parts.ttlMs, attribute)]);
    this.parts.holders?.add(row.orgId, row.subject);
    this.queue(row);
    return row;
  }

  /** A superseded fact: out of the recalled index at once, kept as history naming its successor (in the table, and in the index's history partition for recall through history). */
  private async retire(old: StoredMemory, by: string): Promise<void> {
    const { vectors, embedder, ttlMs } = this.parts;
    const queued = this.queued.get(old.id);
    const known = queued?.embedder === embedder.id ? queued.embedding : null;
    const vector = known ?? (await embedder.embed([statementCore(old.text)]))[0]!;
    await vectors.deletePoints(old.orgId, { ids: [old.id] });
    await vectors.upsert([historyPointOf(pointOf(old, vector, ttlMs, await attributeNear(this.parts, old.text, vector)), by)]);
    this.settings.onRetired?.(old.orgId, [old.id]);
    this.queue({ ...old, embedder: embedder.id, embedding: vector, supersededBy: by });
  }

  /** A retracted fact: out of the index, the queue and the table. */
  private async remove(old: StoredMemory): Promise<void> {
    await this.parts.vectors.deletePoints(old.orgId, { ids: [old.id] });
    this.settings.onRetired?.(old.orgId, [old.id]);
    this.dropQueued(old.orgId, { ids: [old.id] });
    await this.written.catch(() => undefined);
    await this.parts.records.deleteMany(old.orgId, [old.id]);
  }

  /** The row of a new fact, or of the stored one it replaces (same id, first stated then). */
  private rowOf(scope: MemoryScope, fact: ExtractedFact, vector: Float32Array, previous: StoredMemory | undefined): StoredMemoryRow {
    const at = new Date(this.parts.now());
    return {
      id: previous?.id ?? randomUUID(),
      orgId: scope.orgId,
      subject: scope.subject,
      conversationId: scope.conversationId ?? null,
      role: 'user',
      slot: fact.slot ?? null,
      text: fact.text,
      entities: fact.entities,
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
      embedder: this.parts.embedder.id,
      embedding: vector,
      supersededBy: null,
    };
  }
}
