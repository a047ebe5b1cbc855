// Stored facts and the neighbours a vector search returns for them, for the correction rules' tests.
import { extractFacts } from '../extract-facts.js';
import { pointOf } from '../memory-points.js';

const at = new Date(Date.UTC(2026, 0, 1));

/** A stored fact of user `u` of org `o`. */
export const stored = (id: string, text: string, slot: string | null = null) => ({ id, orgId: 'o', subject: 'u', conversationId: null, role: 'user', slot, text, entities: [], createdAt: at, updatedAt: at });

/** Neighbours as a vector search returns them, with the similarities given. */
export const near = (...pairs: [ReturnType<typeof stored>, number][]) => pairs.map(([record, score]) => ({ ...pointOf(record, new Float32Array([1]), 86_400_000), score }));

/** The first fact extracted from a statement. */
export const fact = (text: string) => extractFacts(text)[0]!;
