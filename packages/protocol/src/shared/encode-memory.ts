/** A stored fact as `@svc/memory` reads it back (structurally; protocol does not depend on memory), with a search score. */
export interface MemoryWireSource {
  id: string;
  text: string;
  slot: string | null;
  conversationId: string | null;
  entities: { type: string; value: string }[];
  createdAt: Date;
  updatedAt: Date;
  score?: number;
}

/** A memory in wire names (`/v1/memory*`, and the control plane's admin view); times in Unix seconds. */
export function memoryToWire(memory: MemoryWireSource) {
  return {
    id: memory.id,
    object: 'memory',
    text: memory.text,
    slot: memory.slot,
    conversation_id: memory.conversationId,
    entities: memory.entities,
    ...(memory.score !== undefined ? { score: memory.score } : {}),
    created_at: Math.floor(memory.createdAt.getTime() / 1000),
    updated_at: Math.floor(memory.updatedAt.getTime() / 1000),
  };
}
